import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { watch } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ChatMessage, Conversation } from '../../shared/domain/chat.js';
import { exportJson, exportMarkdown } from '../../electron/host/stores/conversation-export.js';
import {
  FileConversationStore,
  MemoryConversationStore,
} from '../../electron/host/stores/conversation-store.js';
import {
  KeychainSecretStore,
  MemorySecretStore,
  type KeyringModule,
} from '../../electron/host/stores/secret-store.js';
import { DEFAULT_CHAT_SETTINGS, SettingsStore } from '../../electron/host/stores/settings-store.js';
import { HostFailure } from '../../electron/host/util/errors.js';
import { tempDir } from '../helpers/temp-dir.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** A clock the test moves by hand, so "newest first" does not depend on timing. */
function clock(start = 1_000_000): { now: () => number; tick: () => void } {
  let t = start;
  return { now: () => t, tick: () => void (t += 1000) };
}

function userMessage(id: string, text: string): ChatMessage {
  return { id, role: 'user', createdAt: 1, parts: [{ type: 'text', text }] };
}

async function rejectsWith(promise: Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof HostFailure, `expected a HostFailure, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    if (message) assert.match(error.message, message);
    return true;
  });
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

  it(
    'a crash in the middle of saving loses nothing that was saved before it',
    { timeout: 120_000 },
    async (t) => {
      const scriptDir = await tempDir();
      const script = join(scriptDir, 'save-loop.mts');
      const storeUrl = pathToFileURL(join(ROOT, 'electron/host/stores/conversation-store.ts')).href;
      // A large first message makes each write take long enough for the kill to land inside it.
      await writeFile(
        script,
        `import { FileConversationStore } from ${JSON.stringify(storeUrl)};
const store = new FileConversationStore(process.argv[2], { onWarning: () => {} });
const convs = [await store.create('a'), await store.create('b'), await store.create('c')];
const blob = 'y'.repeat(2_000_000);
for (const c of convs) c.messages.push({ id: 'blob', role: 'user', createdAt: 0, parts: [{ type: 'text', text: blob }] });
for (let i = 0; ; i++) {
  for (const c of convs) c.messages.push({ id: 'm' + i, role: 'user', createdAt: i, parts: [{ type: 'text', text: String(i) }] });
  await Promise.all(convs.map((c) => store.save(c)));
  process.stdout.write(i + '\\n');
}
`,
      );
      let killedMidWrite = 0;
      const children: ChildProcess[] = [];
      // A failed assertion must not leave a save loop running (it would also keep the runner alive).
      t.after(() =>
        children.forEach((c) => c.exitCode === null && c.signalCode === null && c.kill('SIGKILL')),
      );
      for (let round = 0; round < 4; round++) {
        const dir = await tempDir();
        const child = spawn(process.execPath, ['--import', 'tsx', script, dir], {
          cwd: ROOT,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        children.push(child);
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        const lastCompleted = await new Promise<number>((resolvePromise, reject) => {
          let buffer = '';
          let last = -1;
          let armed = false;
          child.stdout.on('data', (d: Buffer) => {
            buffer += d.toString();
            const lines = buffer.split('\n');
            buffer = lines.pop() ?? '';
            for (const line of lines) last = Number(line);
            if (last >= 5 && !armed) {
              armed = true;
              // Kill the moment a save's temp file appears: the process dies mid-write.
              const watcher = watch(dir, (_event, name) => {
                if (name?.endsWith('.tmp')) {
                  child.kill('SIGKILL');
                  watcher.close();
                }
              });
              // A writer that never makes a temp file (not atomic) still gets killed, mid-something.
              const fallback = setTimeout(() => child.kill('SIGKILL'), 2000);
              child.once('exit', () => {
                watcher.close();
                clearTimeout(fallback);
              });
            }
          });
          child.on('exit', (code, signal) => {
            if (signal === 'SIGKILL') resolvePromise(last);
            else reject(new Error(`save loop exited by itself (${code}): ${stderr}`));
          });
        });

        if ((await readdir(dir)).some((f) => f.endsWith('.tmp'))) killedMidWrite++;
        const files = (await readdir(dir)).filter((f) => f.endsWith('.json'));
        assert.equal(files.length, 3, `files: ${(await readdir(dir)).join(', ')}`);
        for (const f of files) {
          const conversation = JSON.parse(await readFile(join(dir, f), 'utf8')) as Conversation; // every file parses
          const ids = conversation.messages.map((m) => m.id);
          assert.ok(
            ids.length >= lastCompleted + 2,
            `${f}: ${ids.length - 1} messages, but save ${lastCompleted} had completed`,
          );
          assert.deepEqual(ids, ['blob', ...ids.slice(1).map((_, i) => `m${i}`)]);
        }
        const store = new FileConversationStore(dir, {
          onWarning: (m) => assert.fail(`unexpected warning: ${m}`),
        });
        assert.equal((await store.list()).length, 3);
      }
      // Leftover temp files prove the kills really interrupted writes (else the test proves little).
      assert.ok(killedMidWrite >= 1, 'no round was killed mid-write');
    },
  );
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

describe('conversation export', () => {
  const conversation: Conversation = {
    id: 'c1',
    title: 'Weather\nin Paris',
    createdAt: Date.UTC(2026, 0, 2, 3, 4, 5),
    updatedAt: Date.UTC(2026, 0, 2, 3, 5, 0),
    messages: [
      {
        id: 'u1',
        role: 'user',
        createdAt: Date.UTC(2026, 0, 2, 3, 4, 5),
        parts: [
          { type: 'text', text: 'What is the weather?' },
          {
            type: 'attachment',
            attachment: {
              serverId: 'fs',
              uri: 'file:///tmp/notes.md',
              name: 'notes.md',
              mimeType: 'text/markdown',
              text: '# notes',
            },
          },
        ],
      },
      {
        id: 'a1',
        role: 'assistant',
        model: 'gemini-2.5-flash',
        createdAt: Date.UTC(2026, 0, 2, 3, 4, 6),
        parts: [
          { type: 'thinking', text: 'I should call the tool.\n\nThen answer.' },
          {
            type: 'tool_call',
            call: {
              id: 't1',
              serverId: 'weather',
              tool: 'forecast',
              modelName: 'weather__forecast',
              args: { city: 'Paris' },
              status: 'done',
              approval: 'once',
              startedAt: 1,
              endedAt: 2,
              result: {
                content: [
                  { type: 'text', text: 'Sunny, 21°C\n```\nnot a fence end' },
                  { type: 'image', data: 'AAAA', mimeType: 'image/png' },
                ],
              },
            },
          },
          {
            type: 'tool_call',
            call: {
              id: 't2',
              serverId: 'weather',
              tool: 'alerts',
              modelName: 'weather__alerts',
              args: {},
              status: 'error',
              startedAt: 3,
              error: { code: 'timeout', message: 'the server did not answer in 30 s' },
            },
          },
          { type: 'text', text: 'It is **sunny**.' },
        ],
      },
    ],
  };

  it('markdown: title, role headings, thinking as a blockquote, tool calls as JSON with results and errors, attachments', () => {
    const md = exportMarkdown(conversation);
    assert.ok(md.startsWith('# Weather in Paris\n'), md);
    assert.match(md, /^## User$/m);
    assert.match(md, /^## Assistant \(gemini-2\.5-flash\)$/m);
    assert.match(md, /^> \*\*Thinking\*\*\n>\n> I should call the tool\.\n>\n> Then answer\.$/m);
    assert.ok(!md.includes('<details'), 'no HTML');
    const json = /```json\n([\s\S]*?)\n```/.exec(md);
    assert.ok(json?.[1], md);
    assert.deepEqual(JSON.parse(json[1]), {
      server: 'weather',
      tool: 'forecast',
      args: { city: 'Paris' },
      status: 'done',
      approval: 'once',
    });
    // The result holds a ``` run, so its fence must be longer for the block to stay closed.
    assert.match(md, /\n````\nSunny, 21°C\n```\nnot a fence end\n\n\[image: image\/png\]\n````\n/);
    assert.ok(!md.includes('AAAA'), 'binary content is named, not dumped');
    assert.match(md, /\*\*Error\*\* \(timeout\): the server did not answer in 30 s/);
    assert.match(md, /^- notes\.md — `file:\/\/\/tmp\/notes\.md` from server `fs` \(text\/markdown\)$/m);
    assert.match(md, /It is \*\*sunny\*\*\./);
    assert.ok(md.indexOf('What is the weather?') < md.indexOf('It is **sunny**'));
  });

  it('json: pretty and lossless', () => {
    const text = exportJson(conversation);
    assert.ok(text.includes('\n  "title"'));
    assert.deepEqual(JSON.parse(text), conversation);
  });
});

describe('SettingsStore', () => {
  it('starts from defaults without creating a file, and persists validated updates', async () => {
    const dir = await tempDir();
    const path = join(dir, 'settings.json');
    const store = await SettingsStore.open(path, { onWarning: (m) => assert.fail(m) });
    assert.deepEqual(store.get(), {
      provider: 'gemini',
      geminiModel: 'gemini-2.5-flash',
      openaiBaseUrl: 'http://127.0.0.1:11434/v1',
      openaiModel: 'llama3.1',
      maxTurns: 10,
      disabledServers: [],
      disabledTools: [],
    });
    assert.deepEqual(await readdir(dir), []);

    const next = await store.update({
      provider: 'openai',
      maxTurns: 25,
      disabledTools: ['fs/write', 'fs/write'],
    });
    assert.equal(next.provider, 'openai');
    assert.deepEqual(next.disabledTools, ['fs/write']);
    store.get().disabledTools.push('mutating a copy'); // get() hands out copies
    await store.flush();
    const reopened = await SettingsStore.open(path);
    assert.deepEqual(reopened.get(), {
      ...DEFAULT_CHAT_SETTINGS,
      provider: 'openai',
      maxTurns: 25,
      disabledTools: ['fs/write'],
    });
    const onDisk = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(onDisk).sort(), ['chat', 'trust'], 'a plain JSON object, as conf writes');
  });

  it('rejects bad updates naming the field and changes nothing', async () => {
    const dir = await tempDir();
    const path = join(dir, 'settings.json');
    const store = await SettingsStore.open(path);
    await store.update({ maxTurns: 5 });
    await store.flush();
    const before = await readFile(path, 'utf8');
    await rejectsWith(store.update({ maxTurns: 0 }), 'invalid_settings', /maxTurns/);
    await rejectsWith(
      store.update({ openaiBaseUrl: 'file:///etc/passwd' }),
      'invalid_settings',
      /openaiBaseUrl/,
    );
    await rejectsWith(
      store.update({ provider: 'anthropic' } as unknown as { provider: 'gemini' }),
      'invalid_settings',
      /provider/,
    );
    await rejectsWith(
      store.update({ bogus: true } as unknown as { maxTurns: number }),
      'invalid_settings',
      /bogus/,
    );
    assert.equal(store.get().maxTurns, 5);
    await store.flush();
    assert.equal(await readFile(path, 'utf8'), before);
  });

  it('an unreadable file falls back to defaults with a warning and is kept as settings.json.bad-<ts>', async () => {
    const dir = await tempDir();
    const path = join(dir, 'settings.json');
    await writeFile(path, '{"chat": {"provider": "openai",');
    const warnings: string[] = [];
    const store = await SettingsStore.open(path, {
      onWarning: (m) => warnings.push(m),
      now: () => Date.UTC(2026, 0, 2, 3, 4, 5),
    });
    assert.deepEqual(store.get(), DEFAULT_CHAT_SETTINGS);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /not valid JSON.*kept as .*settings\.json\.bad-2026-01-02T03-04-05-000Z/);
    assert.equal(
      await readFile(join(dir, 'settings.json.bad-2026-01-02T03-04-05-000Z'), 'utf8'),
      '{"chat": {"provider": "openai",',
    );
    assert.deepEqual(
      JSON.parse(await readFile(path, 'utf8')).chat,
      DEFAULT_CHAT_SETTINGS,
      'a good file replaces it',
    );

    // A second bad file in the same millisecond does not replace the first one kept aside.
    await writeFile(path, 'garbage');
    await SettingsStore.open(path, { onWarning: () => {}, now: () => Date.UTC(2026, 0, 2, 3, 4, 5) });
    assert.equal(
      await readFile(join(dir, 'settings.json.bad-2026-01-02T03-04-05-000Z-1'), 'utf8'),
      'garbage',
    );
    assert.equal(
      await readFile(join(dir, 'settings.json.bad-2026-01-02T03-04-05-000Z'), 'utf8'),
      '{"chat": {"provider": "openai",',
    );
  });

  it('keeps valid values and unknown keys of a partly invalid file, and keeps the original aside', async () => {
    const dir = await tempDir();
    const path = join(dir, 'settings.json');
    const original = JSON.stringify({
      __internal__: { migrations: { version: '0.2.0' } },
      windowBounds: { width: 800 },
      chat: { provider: 'openai', maxTurns: -3, openaiModel: 'qwen3', futureOption: 'x' },
      trust: { trustedServers: [{ serverId: 'fs', launchKey: 'k1' }, { serverId: 'bad' }] },
    });
    await writeFile(path, original);
    const warnings: string[] = [];
    const store = await SettingsStore.open(path, { onWarning: (m) => warnings.push(m) });
    assert.deepEqual(store.get(), { ...DEFAULT_CHAT_SETTINGS, provider: 'openai', openaiModel: 'qwen3' });
    assert.ok(store.isTrustedServer('fs', 'k1'));
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /chat\.maxTurns/);
    assert.match(warnings[0] ?? '', /trust\.trustedServers\[1\]/);
    const aside = (await readdir(dir)).filter((f) => f.startsWith('settings.json.bad-'));
    assert.equal(aside.length, 1);
    assert.equal(await readFile(join(dir, aside[0] ?? ''), 'utf8'), original);
    const rewritten = JSON.parse(await readFile(path, 'utf8')) as Record<string, Record<string, unknown>>;
    assert.deepEqual(rewritten.__internal__, { migrations: { version: '0.2.0' } });
    assert.deepEqual(rewritten.windowBounds, { width: 800 });
    assert.equal(rewritten.chat?.futureOption, 'x');
    assert.equal(rewritten.chat?.maxTurns, 10);
  });

  it('trust is keyed to the launch key: a changed launch config is not trusted', async () => {
    const dir = await tempDir();
    const path = join(dir, 'settings.json');
    const store = await SettingsStore.open(path);
    await store.allowAlways('fs', 'key-1', 'read_file');
    assert.equal(store.isAlwaysAllowed('fs', 'key-1', 'read_file'), true);
    assert.equal(store.isAlwaysAllowed('fs', 'key-2', 'read_file'), false, 'different launch key');
    assert.equal(store.isAlwaysAllowed('fs', 'key-1', 'write_file'), false, 'different tool');
    assert.equal(store.isAlwaysAllowed('other', 'key-1', 'read_file'), false, 'different server');

    await store.trustServer('git', 'g-1');
    assert.equal(store.isTrustedServer('git', 'g-1'), true);
    assert.equal(store.isTrustedServer('git', 'g-2'), false);
    assert.equal(store.isTrustedServer('fs', 'key-1'), false, 'allowing one tool does not trust the server');

    // Re-trusting after the command changed replaces the stale entry.
    await store.trustServer('git', 'g-2');
    assert.deepEqual(store.trust().trustedServers, [{ serverId: 'git', launchKey: 'g-2' }]);
    await rejectsWith(store.allowAlways('fs', '', 'x'), 'invalid_trust');

    await store.flush();
    const reopened = await SettingsStore.open(path);
    assert.equal(reopened.isAlwaysAllowed('fs', 'key-1', 'read_file'), true);
    assert.equal(reopened.isTrustedServer('git', 'g-2'), true);
    await reopened.untrustServer('git');
    assert.equal(reopened.isTrustedServer('git', 'g-2'), false);
    await reopened.forgetServer('fs');
    assert.deepEqual(reopened.trust(), { alwaysAllowed: [], trustedServers: [] });
  });

  it('in memory: same rules, nothing written', async () => {
    const store = SettingsStore.inMemory({ maxTurns: 3 });
    assert.equal(store.get().maxTurns, 3);
    assert.equal(store.path, undefined);
    await store.update({ geminiModel: 'gemini-2.5-pro' });
    assert.equal(store.get().geminiModel, 'gemini-2.5-pro');
    assert.throws(() => SettingsStore.inMemory({ maxTurns: 1000 }), /maxTurns/);
  });
});

describe('secret stores (no keychain needed)', () => {
  it('MemorySecretStore sets, reports and deletes; can act as a machine without a keychain', async () => {
    const store = new MemorySecretStore();
    assert.deepEqual(await store.status(), { geminiApiKey: false, openaiApiKey: false });
    await store.set('geminiApiKey', 'AIza-secret');
    await store.set('server.github_token', 'ghp-secret');
    assert.equal(await store.get('geminiApiKey'), 'AIza-secret');
    assert.deepEqual(await store.status(), { geminiApiKey: true, openaiApiKey: false });
    assert.equal(await store.delete('geminiApiKey'), true);
    assert.equal(await store.delete('geminiApiKey'), false);

    const none = new MemorySecretStore({ unavailableReason: 'no OS keychain available' });
    await rejectsWith(none.get('geminiApiKey'), 'keychain_unavailable');
    assert.deepEqual(await none.status(), {
      geminiApiKey: false,
      openaiApiKey: false,
      keychainError: 'no OS keychain available',
    });
  });

  it('names and values are checked before the keychain is touched; errors never quote the value', async () => {
    let loaded = 0;
    const store = new KeychainSecretStore({
      loadKeyring: async () => {
        loaded++;
        throw new Error('must not be loaded');
      },
    });
    for (const name of ['../x', '', 'a b', 'x'.repeat(101), 'a/b']) {
      await rejectsWith(store.get(name), 'invalid_secret_name');
      await rejectsWith(store.set(name, 'v'), 'invalid_secret_name');
      await rejectsWith(store.delete(name), 'invalid_secret_name');
    }
    await rejectsWith(store.set('geminiApiKey', ''), 'invalid_secret', /delete it instead/);
    await assert.rejects(
      store.set('geminiApiKey', 'x'.repeat(100_001)),
      (e: Error) => !e.message.includes('xxxx'),
    );
    assert.equal(loaded, 0);
    await rejectsWith(
      store.get('geminiApiKey'),
      'keychain_unavailable',
      /keychain module could not be loaded/,
    );
  });

  it('a native failure that echoes the value is reported without it', async () => {
    const value = 'sk-live-0123456789';
    class FakeEntry {
      async setPassword(v: string): Promise<void> {
        throw new Error(`Platform secure storage failure: DBus error: cannot store ${v}\nCaused by: ...`);
      }
    }
    const fake = { AsyncEntry: FakeEntry, findCredentialsAsync: async () => [] } as unknown as KeyringModule;
    const store = new KeychainSecretStore({ loadKeyring: async () => fake, platform: 'linux' });
    await assert.rejects(store.set('openaiApiKey', value), (error: unknown) => {
      assert.ok(error instanceof HostFailure);
      assert.equal(error.code, 'keychain_unavailable');
      assert.ok(!error.message.includes(value), error.message);
      assert.ok(!error.message.includes('Caused by'), 'only the first line of the native error');
      assert.match(error.message, /gnome-keyring/);
      return true;
    });
  });
});
