// The conversation stores: the file store (atomic writes, bad files kept aside, concurrent
// writers) and the in-memory one. That a killed writer loses nothing is an integration test
// (tests/integration/conversation-store-crash.test.ts): it kills real processes.
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ChatMessage, Conversation } from '../../shared/domain/chat.js';
import { MemoryConversationStore } from '../../electron/host/stores/conversation-store.js';
import { FileConversationStore } from '../../electron/host/stores/file-conversation-store.js';
import { tempDir } from '../helpers/temp-dir.js';
import { rejectsWith } from '../helpers/rejects-with.js';

/** A clock the test moves by hand, so "newest first" does not depend on timing. */
function clock(start = 1_000_000): { now: () => number; tick: () => void } {
  let t = start;
  return { now: () => t, tick: () => void (t += 1000) };
}

function userMessage(id: string, text: string): ChatMessage {
  return { id, role: 'user', createdAt: 1, parts: [{ type: 'text', text }] };
}

describe('FileConversationStore', () => {
  it('creates, lists newest first, saves, renames and deletes; a second instance sees the same files', async () => {
    const dir = await tempDir();
    const c = clock();
    const store = new FileConversationStore(dir, { now: c.now });
    assert.deepEqual(await store.list(), []);
    const a = await store.create('First');
    c.tick();
    const b = await store.create();
    assert.equal(b.title, 'New chat');
    assert.match(a.id, /^[A-Za-z0-9_-]{1,64}$/);
    assert.notEqual(a.id, b.id);
    assert.deepEqual(
      (await store.list()).map((s) => s.id),
      [b.id, a.id],
    );

    c.tick();
    a.messages.push(userMessage('m1', 'hello'));
    await store.save(a);
    assert.equal(a.updatedAt, c.now(), 'save sets updatedAt');
    assert.deepEqual(await store.list(), [
      { id: a.id, title: 'First', updatedAt: c.now(), messageCount: 1 },
      { id: b.id, title: 'New chat', updatedAt: c.now() - 1000, messageCount: 0 },
    ]);

    c.tick();
    const renamed = await store.rename(b.id, '  Renamed  ');
    assert.deepEqual(renamed, { id: b.id, title: 'Renamed', updatedAt: c.now(), messageCount: 0 });
    await rejectsWith(store.rename(b.id, '   '), 'invalid_title');
    await rejectsWith(store.rename(b.id, 'x'.repeat(201)), 'invalid_title');

    await store.flush();
    const again = new FileConversationStore(dir);
    assert.deepEqual(
      (await again.list()).map((s) => [s.id, s.title]),
      [
        [b.id, 'Renamed'],
        [a.id, 'First'],
      ],
    );
    const loaded = await again.get(a.id);
    assert.deepEqual(loaded.messages, [userMessage('m1', 'hello')]);

    await store.delete(a.id);
    await store.delete(a.id); // already gone: not an error
    assert.deepEqual(
      (await store.list()).map((s) => s.id),
      [b.id],
    );
    await rejectsWith(store.get(a.id), 'conversation_not_found');
    await rejectsWith(store.save(a), 'conversation_not_found', /was deleted/);
    assert.deepEqual((await readdir(dir)).sort(), [`${b.id}.json`]);
  });

  it('hands out one live object, so a rename during a run and the run’s saves keep both changes', async () => {
    const dir = await tempDir();
    const store = new FileConversationStore(dir);
    const created = await store.create('Old');
    const running = await store.get(created.id);
    assert.equal(running, created);
    running.messages.push(userMessage('m1', 'question'));
    await store.rename(created.id, 'New title');
    running.messages.push(userMessage('m2', 'more'));
    await store.save(running);
    await store.flush();
    const onDisk = JSON.parse(await readFile(join(dir, `${created.id}.json`), 'utf8')) as Conversation;
    assert.equal(onDisk.title, 'New title');
    assert.deepEqual(
      onDisk.messages.map((m) => m.id),
      ['m1', 'm2'],
    );
  });

  it('skips a corrupt or foreign file with a warning and never deletes or overwrites it', async () => {
    const dir = await tempDir();
    const good: Conversation = {
      id: 'good',
      title: 'Good',
      createdAt: 1,
      updatedAt: 5,
      messages: [userMessage('m', 'hi')],
    };
    await writeFile(join(dir, 'good.json'), JSON.stringify(good));
    await writeFile(join(dir, 'broken.json'), '{"id":"broken","title":"half-writ');
    await writeFile(join(dir, 'foreign.json'), JSON.stringify({ hello: 'world' }));
    await writeFile(join(dir, 'good.json.123.abcd.tmp'), '{"leftover":'); // a crashed write
    await writeFile(join(dir, 'notes.txt'), 'not a conversation');
    const before = await Promise.all(
      ['broken.json', 'foreign.json'].map((f) => readFile(join(dir, f), 'utf8')),
    );

    const warnings: string[] = [];
    const store = new FileConversationStore(dir, { onWarning: (m) => warnings.push(m) });
    assert.deepEqual(await store.list(), [{ id: 'good', title: 'Good', updatedAt: 5, messageCount: 1 }]);
    assert.equal(warnings.length, 2, warnings.join('\n'));
    assert.ok(
      warnings.some((w) => w.includes('broken.json') && /not valid JSON/.test(w) && /left untouched/.test(w)),
      warnings.join('\n'),
    );
    assert.ok(
      warnings.some((w) => w.includes('foreign.json') && /not a conversation: title/.test(w)),
      warnings.join('\n'),
    );

    await rejectsWith(store.get('broken'), 'conversation_corrupt', /broken\.json was left untouched/);
    await rejectsWith(
      store.save({ id: 'broken', title: 'x', createdAt: 1, updatedAt: 1, messages: [] }),
      'conversation_corrupt',
    );
    await rejectsWith(store.delete('foreign'), 'conversation_corrupt', /left in place/);
    await store.create('another');
    await store.flush();
    const afterwards = await Promise.all(
      ['broken.json', 'foreign.json'].map((f) => readFile(join(dir, f), 'utf8')),
    );
    assert.deepEqual(afterwards, before, 'bad files are byte-for-byte unchanged');

    // Once a person repairs the file by hand it is readable again.
    await writeFile(join(dir, 'broken.json'), JSON.stringify({ ...good, id: 'broken', title: 'Repaired' }));
    assert.equal((await store.get('broken')).title, 'Repaired');
    assert.ok((await store.list()).some((s) => s.id === 'broken'));
  });

  it('refuses ids that could leave the folder, for every method', async () => {
    const root = await tempDir();
    const dir = join(root, 'conversations');
    const store = new FileConversationStore(dir);
    const conv = (id: string): Conversation => ({ id, title: 't', createdAt: 1, updatedAt: 1, messages: [] });
    for (const id of ['../x', '..', '.', 'a/b', 'a\\b', '', 'x'.repeat(65), 'a.json', '%2e%2e']) {
      await rejectsWith(store.get(id), 'invalid_conversation_id');
      await rejectsWith(store.save(conv(id)), 'invalid_conversation_id');
      await rejectsWith(store.rename(id, 'title'), 'invalid_conversation_id');
      await rejectsWith(store.delete(id), 'invalid_conversation_id');
    }
    assert.deepEqual(await readdir(root), [], 'nothing was written anywhere');
  });
});

describe('MemoryConversationStore', () => {
  it('behaves like the file store without touching disk', async () => {
    const c = clock();
    const store = new MemoryConversationStore(c.now);
    const a = await store.create('A');
    c.tick();
    const b = await store.create();
    assert.deepEqual(
      (await store.list()).map((s) => s.id),
      [b.id, a.id],
    );
    c.tick();
    assert.equal((await store.rename(a.id, 'A2')).updatedAt, c.now());
    assert.deepEqual(
      (await store.list()).map((s) => s.title),
      ['A2', 'New chat'],
    );
    await store.delete(a.id);
    await rejectsWith(store.get(a.id), 'conversation_not_found');
    await rejectsWith(store.get('../x'), 'invalid_conversation_id');
  });
});
