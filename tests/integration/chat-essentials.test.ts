/**
 * Chat essentials on the host (issue 12 item 8): retry and edit-and-resend truncate the stored
 * conversation and send the model only what is left; search finds titles and message text;
 * a conversation's own server switches change what the model is offered; a tool's duration
 * leaves out the wait for approval; a failing model is retried with one de-duplicated list,
 * not a notice per attempt. The real GeminiProvider against the wire-exact fake Gemini, real
 * server-everything over stdio.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ChatEvent, ToolCallRecord } from '../../shared/domain/chat.js';
import {
  declarationsOf,
  failure,
  functionCall,
  reply,
  text,
  type FakeGemini,
  type RecordedRequest,
} from '../fixtures/fake-gemini.js';
import { fakeModelOverrides, startFakeModel } from '../helpers/fake-model.js';
import {
  CleanupStack,
  createTestHost,
  SERVERS,
  waitFor,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';
import { noteRetry } from '../../electron/host/chat/agent-loop.js';

const KEY = 'fake-key-for-chat-essentials';
const stack = new CleanupStack();
let fake: FakeGemini;
let h: TestHost;

before(async () => {
  fake = await startFakeModel(stack, KEY);
  h = await createTestHost(stack, {
    servers: { everything: { command: process.execPath, args: [SERVERS.everything, 'stdio'] } },
    providerOverrides: fakeModelOverrides(fake, KEY),
  });
  await waitForState(h.host, 'everything', 'connected');
});
after(() => stack.run());

/** The user/model texts of a recorded request, in order. */
function textsOf(request: RecordedRequest): string[] {
  return (request.body?.contents ?? []).map((c) =>
    (c.parts ?? []).map((p) => ('text' in p && typeof p.text === 'string' ? p.text : '')).join(''),
  );
}

const lastRequest = () => fake.generateRequests().at(-1)!;

test('retry drops what followed the user turn and answers it again', async () => {
  const c = await h.chat.create();
  fake.enqueue(reply(text('first answer')));
  await (
    await h.chat.send(c.id, 'question one')
  ).done;
  const stored = await h.chat.get(c.id);
  assert.equal(stored.messages.length, 2);
  const [user, answer] = stored.messages;

  fake.enqueue(reply(text('second answer')));
  // Retrying the answer reruns the user turn it answered.
  await (
    await h.chat.retry(c.id, answer.id)
  ).done;
  const after = await h.chat.get(c.id);
  assert.deepEqual(
    after.messages.map((m) => m.role),
    ['user', 'assistant'],
  );
  assert.equal(after.messages[0].id, user.id);
  assert.match(JSON.stringify(after.messages[1].parts), /second answer/);
  assert.doesNotMatch(JSON.stringify(after.messages), /first answer/);
  assert.deepEqual(textsOf(lastRequest()), ['question one'], 'the model saw only the user turn');
});

test('edit-and-resend replaces the text, drops later turns, and sends the edited text', async () => {
  const c = await h.chat.create();
  fake.enqueue(reply(text('a1')), reply(text('a2')));
  await (
    await h.chat.send(c.id, 'original')
  ).done;
  await (
    await h.chat.send(c.id, 'follow-up')
  ).done;
  const first = (await h.chat.get(c.id)).messages[0];
  fake.enqueue(reply(text('edited answer')));
  const events: ChatEvent[] = [];
  const off = h.chat.onEvent((id, e) => id === c.id && events.push(e));
  await (
    await h.chat.edit(c.id, first.id, 'edited question')
  ).done;
  off();
  const stored = await h.chat.get(c.id);
  assert.equal(stored.messages.length, 2);
  assert.equal(stored.messages[0].id, first.id, 'the edited message keeps its id');
  assert.match(JSON.stringify(stored.messages[0].parts), /edited question/);
  assert.deepEqual(textsOf(lastRequest()), ['edited question']);
  const start = events.find((e) => e.type === 'run-start');
  assert.equal(start?.type === 'run-start' && start.userMessage.id, first.id);
  await assert.rejects(h.chat.edit(c.id, stored.messages[1].id, 'x'), /only a message you wrote/);
  await assert.rejects(h.chat.retry(c.id, 'no-such-message'), /no longer in this conversation/);
});

test('search finds conversations by title and by message text', async () => {
  const a = await h.chat.create('Quarterly planning');
  const b = await h.chat.create();
  fake.enqueue(reply(text('The zebra count is 12.')));
  await (
    await h.chat.send(b.id, 'count the animals')
  ).done;
  const byTitle = await h.chat.search('quarterly');
  assert.deepEqual(
    byTitle.map((m) => [m.id, m.in]),
    [[a.id, 'title']],
  );
  const byText = await h.chat.search('ZEBRA');
  assert.deepEqual(
    byText.map((m) => m.id),
    [b.id],
  );
  assert.match(byText[0].snippet, /zebra count/);
  assert.deepEqual(await h.chat.search('no such words anywhere'), []);
});

test("a conversation's own switches change the tools offered there, and only there", async () => {
  const off = await h.chat.create();
  const on = await h.chat.create();
  const global = await h.chat.toolOffer();
  assert.ok(global.offered > 0);
  const switches = await h.chat.setToolSwitches(off.id, { servers: { everything: false } });
  assert.deepEqual(switches, { servers: { everything: false } });
  assert.equal((await h.chat.toolOffer(off.id)).offered, 0);
  assert.equal((await h.chat.toolOffer(on.id)).offered, global.offered);

  fake.enqueue(reply(text('no tools here')), reply(text('tools here')));
  await (
    await h.chat.send(off.id, 'hello')
  ).done;
  assert.deepEqual(declarationsOf(lastRequest()), [], 'no declarations of the switched-off server');
  await (
    await h.chat.send(on.id, 'hello')
  ).done;
  assert.ok(declarationsOf(lastRequest()).some((d) => d.name === 'everything__echo'));
  // Switching back to the global setting removes the override altogether.
  assert.deepEqual(await h.chat.setToolSwitches(off.id, { servers: { everything: true } }), {});
  assert.equal((await h.chat.get(off.id)).toolSwitches, undefined);
});

test('a tool call is timed from when it ran; the approval wait is recorded apart', async () => {
  const c = await h.chat.create();
  fake.enqueue(reply(functionCall('everything__echo', { message: 'hi' }, { id: 'w1' })), reply(text('done')));
  const calls: ToolCallRecord[] = [];
  const off = h.chat.onEvent((id, e) => id === c.id && e.type === 'tool-call' && calls.push(e.call));
  const run = await h.chat.send(c.id, 'echo hi');
  const pending = await waitFor('approval', () => h.broker.list()[0]);
  const asked = calls[0].startedAt;
  // The person takes a moment: the call must not start before the approval.
  await new Promise((r) => setTimeout(r, 150));
  const approvedAt = Date.now();
  h.broker.respond(pending.id, { kind: 'tool-approval', choice: 'once' });
  await run.done;
  off();
  const last = calls.at(-1)!;
  assert.equal(last.status, 'done');
  assert.ok(last.startedAt >= approvedAt, 'the duration starts after the approval');
  assert.ok(last.approvalWaitMs !== undefined && last.approvalWaitMs >= approvedAt - asked);
});

test('a failing model turn is retried with one de-duplicated list and ends in one error', async () => {
  const c = await h.chat.create();
  fake.enqueue(failure(503), failure(503), failure(503));
  const events: ChatEvent[] = [];
  const off = h.chat.onEvent((id, e) => id === c.id && events.push(e));
  const outcome = await (await h.chat.send(c.id, 'are you there?')).done;
  off();
  assert.equal(outcome.reason, 'error');
  assert.equal(events.filter((e) => e.type === 'notice').length, 0, 'no notice per attempt');
  const retries = events.filter((e) => e.type === 'retry');
  assert.equal(retries.length, 2, 'three attempts: two retries');
  const stored = await h.chat.get(c.id);
  const failed = stored.messages.filter((m) => m.error);
  assert.equal(failed.length, 1, 'one message carries the error');
  assert.equal(failed[0].retries?.length, 1, 'the same reason twice is one entry');
  assert.equal(failed[0].retries?.[0].count, 2);
});

test('noteRetry folds a repeated reason and keeps distinct ones in order', () => {
  const a = noteRetry(undefined, 'x', 1);
  const b = noteRetry(a, 'y', 2);
  const c = noteRetry(b, 'x', 3);
  assert.deepEqual(c, [
    { message: 'x', count: 2, lastAt: 3 },
    { message: 'y', count: 1, lastAt: 2 },
  ]);
  assert.deepEqual(a, [{ message: 'x', count: 1, lastAt: 1 }], 'the input is not changed');
});
