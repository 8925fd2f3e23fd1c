/**
 * Tool arguments naming paths outside the shared folders ask first, even for a trusted
 * server: the real chat engine and @google/genai client against the fake Gemini server,
 * real server-filesystem over stdio marked trusted, one shared folder. A read inside the
 * folder runs silently; a read naming a file outside it waits on an approval card that lists
 * the outside paths, and a denied call never reaches the server.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { ChatEvent, ToolApprovalRequest, ToolCallRecord } from '../../shared/domain/chat.js';
import { functionCall, reply, text, type FakeGemini } from '../fixtures/fake-gemini.js';
import { fakeModelOverrides, startFakeModel } from '../helpers/fake-model.js';
import {
  CleanupStack,
  createTestHost,
  nodeServer,
  SERVERS,
  waitFor,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';

const KEY = 'fake-key-for-tests-456';
const stack = new CleanupStack();
let fake: FakeGemini;
let h: TestHost;
let root: string;
let secret: string;

before(async () => {
  // realpath: the temp dir may sit behind a symlink (macOS /var -> /private/var).
  const base = await realpath(await mkdtemp(join(tmpdir(), 'chat-roots-')));
  stack.defer(() => rm(base, { recursive: true, force: true }));
  root = join(base, 'shared');
  await mkdir(root);
  await mkdir(join(base, 'private'));
  await writeFile(join(root, 'note.txt'), 'the shared note');
  secret = join(base, 'private', 'secret.txt');
  await writeFile(secret, 'the private secret');
  fake = await startFakeModel(stack, KEY);
  h = await createTestHost(stack, {
    servers: { fs: nodeServer(SERVERS.filesystem, [root], { trust: 'trusted' }) },
    providerOverrides: fakeModelOverrides(fake, KEY),
    roots: [root],
  });
  await waitForState(h.host, 'fs', 'connected');
});
after(() => stack.run());

/** A conversation's tool calls (latest state of each) and every approval it raised. */
function watch(conversationId: string): { calls: () => ToolCallRecord[]; approvals: ToolApprovalRequest[] } {
  const events: ChatEvent[] = [];
  const approvals: ToolApprovalRequest[] = [];
  const offChat = h.chat.onEvent((id, ev) => id === conversationId && events.push(ev));
  const offPending = h.events.on('pending.changed', (list) => {
    for (const r of list)
      if (
        r.kind === 'tool-approval' &&
        r.conversationId === conversationId &&
        !approvals.some((a) => a.id === r.id)
      )
        approvals.push(r);
  });
  stack.defer(offChat);
  stack.defer(offPending);
  const calls = () => {
    const last = new Map<string, ToolCallRecord>();
    for (const e of events) if (e.type === 'tool-call') last.set(e.call.id, e.call);
    return [...last.values()];
  };
  return { calls, approvals };
}

const serverCalls = () => h.host.trace('fs').filter((e) => e.method === 'tools/call').length;

/** The next approval of this conversation that is still open. */
function nextApproval(conversationId: string): Promise<ToolApprovalRequest> {
  return waitFor('an approval card', () =>
    h.broker
      .list()
      .find(
        (r): r is ToolApprovalRequest => r.kind === 'tool-approval' && r.conversationId === conversationId,
      ),
  );
}

test('a trusted server reads a file inside the shared folder without asking', async () => {
  fake.enqueue(
    reply(functionCall('fs__read_text_file', { path: join(root, 'note.txt') })),
    reply(text('It says: the shared note.')),
  );
  const conv = await h.chat.create();
  const { calls, approvals } = watch(conv.id);
  const { done } = await h.chat.send(conv.id, 'read my note');
  assert.equal((await done).reason, 'done');
  assert.deepEqual(approvals, [], 'no approval card');
  const [call] = calls();
  assert.equal(call?.status, 'done', JSON.stringify(call));
  assert.equal(call?.approval, 'trusted');
  assert.match(JSON.stringify(call?.result), /the shared note/);
});

test('a trusted server naming a file outside the shared folder waits for approval; denied, the server never sees it', async () => {
  fake.enqueue(
    reply(functionCall('fs__read_text_file', { path: secret })),
    reply(text('I was not allowed to read it.')),
  );
  const conv = await h.chat.create();
  const { calls } = watch(conv.id);
  const before = serverCalls();
  const { done } = await h.chat.send(conv.id, 'read the secret');
  const card = await nextApproval(conv.id);
  assert.deepEqual(card.outsideRoots, [secret]);
  assert.match(card.reason, /outside your shared folders/);
  assert.ok(card.reason.includes(secret), card.reason);
  assert.deepEqual(card.args, { path: secret }, 'the card still shows the full arguments');
  assert.ok(h.broker.respond(card.id, { kind: 'tool-approval', choice: 'deny' }));
  assert.equal((await done).reason, 'done');
  assert.equal(calls()[0]?.status, 'denied');
  assert.equal(serverCalls(), before, 'no tools/call reached the server');
  const requested = (await h.audit.query({ kind: 'approval' })).find(
    (r) => r.action === 'requested' && r.details?.id === card.id,
  );
  assert.deepEqual(requested?.details?.outsideRoots, [secret], 'the audit record names the outside path');
});

test('nested arguments: /etc/passwd among shared files is named, the shared ones are not', async () => {
  fake.enqueue(
    reply(
      functionCall('fs__read_multiple_files', {
        paths: [join(root, 'note.txt'), '/etc/passwd', `${root}/../private/secret.txt`],
      }),
    ),
    reply(text('ok')),
  );
  const conv = await h.chat.create();
  const before = serverCalls();
  const { done } = await h.chat.send(conv.id, 'read them all');
  const card = await nextApproval(conv.id);
  assert.deepEqual(card.outsideRoots, ['/etc/passwd', `${root}/../private/secret.txt`]);
  h.broker.respond(card.id, { kind: 'tool-approval', choice: 'deny' });
  await done;
  assert.equal(serverCalls(), before);
});

for (const choice of ['always', 'chat'] as const)
  test(`"${choice}" on such a card never makes later outside calls silent`, async () => {
    fake.enqueue(
      reply(functionCall('fs__get_file_info', { path: secret })),
      reply(functionCall('fs__get_file_info', { path: join(root, 'note.txt') })),
      reply(functionCall('fs__get_file_info', { path: '/etc/hostname' })),
      reply(text('done')),
    );
    const conv = await h.chat.create();
    const { calls, approvals } = watch(conv.id);
    const { done } = await h.chat.send(conv.id, 'look at some files');
    const first = await nextApproval(conv.id);
    assert.ok(h.broker.respond(first.id, { kind: 'tool-approval', choice }));
    const second = await nextApproval(conv.id);
    assert.notEqual(second.id, first.id);
    assert.deepEqual(second.outsideRoots, ['/etc/hostname'], 'the next outside call asks again');
    assert.ok(h.broker.respond(second.id, { kind: 'tool-approval', choice: 'deny' }));
    assert.equal((await done).reason, 'done');
    assert.equal(approvals.length, 2, 'the in-roots call in between did not ask');
    // The first ran on the person's say-so (server-filesystem then refuses it on its own);
    // the in-roots one ran silently; the last was denied.
    assert.deepEqual(
      calls().map((c) => [c.args.path, c.approval ?? null, c.status === 'denied' ? 'denied' : 'ran']),
      [
        [secret, choice, 'ran'],
        [join(root, 'note.txt'), 'trusted', 'ran'],
        ['/etc/hostname', null, 'denied'],
      ],
    );
  });
