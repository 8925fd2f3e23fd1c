/**
 * The chat agent loop end to end: the real @google/genai client (through GeminiProvider)
 * against the wire-exact fake Gemini server, real server-everything over stdio, the real
 * approval broker. Each test scripts the model's turns and asserts what reached the model
 * and the server.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ChatEvent, ToolCallRecord } from '../../shared/domain/chat.js';
import {
  failure,
  functionCall,
  hold,
  partsOf,
  reply,
  splitText,
  text,
  type FakeGemini,
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

const KEY = 'fake-key-for-tests-123';
const stack = new CleanupStack();
let fake: FakeGemini;
let h: TestHost;
let trustedHost: TestHost;

before(async () => {
  fake = await startFakeModel(stack, KEY);
  const overrides = fakeModelOverrides(fake, KEY);
  h = await createTestHost(stack, {
    servers: { everything: { command: process.execPath, args: [SERVERS.everything, 'stdio'] } },
    providerOverrides: overrides,
  });
  trustedHost = await createTestHost(stack, {
    servers: {
      everything: { command: process.execPath, args: [SERVERS.everything, 'stdio'], trust: 'trusted' },
    },
    providerOverrides: overrides,
    maxTurns: 2,
  });
  await waitForState(h.host, 'everything', 'connected');
  await waitForState(trustedHost.host, 'everything', 'connected');
});
after(() => stack.run());

/** Collect a conversation's events until its run ends. */
function collect(
  t: TestHost,
  conversationId: string,
): { events: ChatEvent[]; calls: () => ToolCallRecord[] } {
  const events: ChatEvent[] = [];
  const off = t.chat.onEvent((id, ev) => id === conversationId && events.push(ev));
  stack.defer(off);
  const calls = () => {
    const last = new Map<string, ToolCallRecord>();
    for (const e of events) if (e.type === 'tool-call') last.set(e.call.id, e.call);
    return [...last.values()];
  };
  return { events, calls };
}

test('a multi-turn run with two parallel tool calls streams text, runs both, and feeds both results back', async () => {
  fake.enqueue(
    reply(...splitText('Let me check both.', 3), [
      functionCall('everything__echo', { message: 'hi' }, { id: 'c1' }),
      functionCall('everything__get-sum', { a: 2, b: 3 }, { id: 'c2' }),
    ]),
    reply(...splitText('Echo said hi and the sum is 5.', 4)),
  );
  const before = fake.generateRequests().length;
  const conv = await trustedHost.chat.create();
  const { events, calls } = collect(trustedHost, conv.id);
  const { done } = await trustedHost.chat.send(conv.id, 'echo hi and add 2+3');
  const outcome = await done;
  assert.equal(outcome.reason, 'done');
  assert.ok(events.filter((e) => e.type === 'text-delta').length >= 4, 'text arrives in several deltas');
  const finished = calls();
  assert.equal(finished.length, 2);
  assert.ok(
    finished.every((c) => c.status === 'done' && c.approval === 'trusted'),
    JSON.stringify(finished),
  );
  // Both results went back to the model in one user turn, under the model's call ids.
  const second = fake.generateRequests()[before + 1];
  const responses = partsOf(second)
    .filter((p) => p.part.functionResponse)
    .map((p) => p.part.functionResponse as { id?: string; name: string; response: Record<string, unknown> });
  assert.deepEqual(responses.map((r) => r.name).sort(), ['everything__echo', 'everything__get-sum']);
  assert.match(JSON.stringify(responses.find((r) => r.name === 'everything__echo')?.response), /Echo: hi/);
  assert.match(JSON.stringify(responses.find((r) => r.name === 'everything__get-sum')?.response), /5/);
  // The conversation is stored with the user message, both assistant turns and the tool cards.
  const stored = await trustedHost.chat.get(conv.id);
  assert.equal(stored.messages.length, 3);
  assert.match(JSON.stringify(stored.messages[2]), /sum is 5/);
});

test('an approval denied: the card shows the full arguments, the tool never runs, the model hears it was denied', async () => {
  fake.enqueue(
    reply(functionCall('everything__echo', { message: 'secret plan' }, { id: 'd1' })),
    reply(text('Understood, I will not echo.')),
  );
  const before = fake.generateRequests().length;
  const conv = await h.chat.create();
  const { calls } = collect(h, conv.id);
  const traceBefore = h.host.trace('everything').filter((e) => e.method === 'tools/call').length;
  const { done } = await h.chat.send(conv.id, 'echo my plan');
  const pending = await waitFor('approval request', () => h.broker.list()[0]);
  assert.equal(pending.kind, 'tool-approval');
  if (pending.kind !== 'tool-approval') return;
  assert.deepEqual(pending.args, { message: 'secret plan' });
  assert.equal(pending.conversationId, conv.id);
  assert.ok(h.broker.respond(pending.id, { kind: 'tool-approval', choice: 'deny' }));
  assert.equal((await done).reason, 'done');
  assert.equal(calls()[0]?.status, 'denied');
  assert.equal(
    h.host.trace('everything').filter((e) => e.method === 'tools/call').length,
    traceBefore,
    'no tools/call reached the server',
  );
  const resp = partsOf(fake.generateRequests()[before + 1]).find((p) => p.part.functionResponse);
  assert.match(JSON.stringify(resp?.part), /denied/);
});

test('"allow for this chat" is remembered for the conversation only', async () => {
  fake.enqueue(
    reply(functionCall('everything__echo', { message: 'one' })),
    reply(functionCall('everything__echo', { message: 'two' })),
    reply(text('done')),
  );
  const conv = await h.chat.create();
  const { calls } = collect(h, conv.id);
  const { done } = await h.chat.send(conv.id, 'echo twice');
  const first = await waitFor('approval', () => h.broker.list()[0]);
  h.broker.respond(first.id, { kind: 'tool-approval', choice: 'chat' });
  await done;
  assert.deepEqual(
    calls().map((c) => [c.status, c.approval]),
    [
      ['done', 'chat'],
      ['done', 'chat'],
    ],
  );
  // A new conversation asks again.
  fake.enqueue(reply(functionCall('everything__echo', { message: 'three' })), reply(text('ok')));
  const other = await h.chat.create();
  const run = await h.chat.send(other.id, 'echo again');
  const again = await waitFor('approval in the other chat', () => h.broker.list()[0]);
  assert.equal(again.kind === 'tool-approval' ? again.conversationId : undefined, other.id);
  h.broker.respond(again.id, { kind: 'tool-approval', choice: 'deny' });
  await run.done;
});

test('a tool error goes back to the model as an error', async () => {
  fake.enqueue(
    reply(functionCall('everything__get-sum', { a: 'not a number', b: 1 })),
    reply(text('That failed.')),
  );
  const before = fake.generateRequests().length;
  const conv = await trustedHost.chat.create();
  const { calls } = collect(trustedHost, conv.id);
  const { done } = await trustedHost.chat.send(conv.id, 'add nonsense');
  assert.equal((await done).reason, 'done');
  assert.equal(calls()[0]?.status, 'error');
  const resp = partsOf(fake.generateRequests()[before + 1]).find((p) => p.part.functionResponse)?.part
    .functionResponse as { response: Record<string, unknown> };
  assert.ok('error' in resp.response, `the model got an error: ${JSON.stringify(resp)}`);
});

test('max turns reached: one last turn with tools off gives a best-effort answer', async () => {
  fake.enqueue(
    reply(functionCall('everything__echo', { message: '1' })),
    reply(functionCall('everything__echo', { message: '2' })),
    reply(text('Best effort: echoed twice.')),
  );
  const before = fake.generateRequests().length;
  const conv = await trustedHost.chat.create();
  const { events } = collect(trustedHost, conv.id);
  const { done } = await trustedHost.chat.send(conv.id, 'keep echoing');
  assert.equal((await done).reason, 'max-turns');
  const last = fake.generateRequests()[before + 2];
  assert.equal(last.body?.toolConfig?.functionCallingConfig?.mode, 'NONE');
  assert.match(JSON.stringify(last.body?.contents), /limit of tool-calling turns/);
  assert.ok(events.some((e) => e.type === 'text-delta' && e.text.includes('Best effort')));
});

test('a transient model error is retried (a retry event, no notice); a bad key is not', async () => {
  fake.enqueue(failure(503), reply(text('Recovered.')));
  const conv = await trustedHost.chat.create();
  const { events } = collect(trustedHost, conv.id);
  const { done } = await trustedHost.chat.send(conv.id, 'hello');
  assert.equal((await done).reason, 'done');
  assert.ok(events.some((e) => e.type === 'retry' && e.retries[0]?.count === 1));
});

test('Stop mid-stream with a tool call in flight: the stream closes and the server gets notifications/cancelled', async () => {
  fake.enqueue(
    reply(
      functionCall(
        'everything__trigger-long-running-operation',
        { duration: 30, steps: 30 },
        { id: 'long1' },
      ),
    ),
  );
  const conv = await trustedHost.chat.create();
  const { calls } = collect(trustedHost, conv.id);
  const { done } = await trustedHost.chat.send(conv.id, 'run the long thing');
  await waitFor('the long call to report progress', () =>
    calls().find((c) => c.status === 'running' && c.progress),
  );
  assert.ok(await trustedHost.chat.stop(conv.id));
  assert.equal((await done).reason, 'stopped');
  assert.equal(calls()[0]?.status, 'cancelled');
  const cancelled = await waitFor('notifications/cancelled in the trace', () =>
    trustedHost.host
      .trace('everything')
      .find((e) => e.direction === 'out' && e.method === 'notifications/cancelled'),
  );
  assert.ok(cancelled);

  // And a stop while the model is still streaming closes the HTTP stream to the model.
  fake.enqueue(hold(text('I am thinking very slowly')));
  const conv2 = await trustedHost.chat.create();
  const { events } = collect(trustedHost, conv2.id);
  const run2 = await trustedHost.chat.send(conv2.id, 'think');
  await waitFor('first text', () => events.find((e) => e.type === 'text-delta'));
  const streamRequest = fake.generateRequests().at(-1)!;
  await trustedHost.chat.stop(conv2.id);
  assert.equal((await run2.done).reason, 'stopped');
  assert.equal(await streamRequest.closed, 'client-disconnected');
});
