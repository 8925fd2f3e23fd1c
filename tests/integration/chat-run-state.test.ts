/**
 * The host's run state as the renderer reads it: every `chat.listChanged` sent while a run is
 * going names it as the conversation's `activeRunId`, and the list sent after its `run-end`
 * names none (the renderer keeps no run state of its own, so a stale id would show a
 * finished conversation as still answering). Real host, real @google/genai client, fake Gemini.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ConversationSummary } from '../../shared/domain/chat.js';
import { hold, reply, text, type FakeGemini } from '../fixtures/fake-gemini.js';
import { fakeModelOverrides, startFakeModel } from '../helpers/fake-model.js';
import { CleanupStack, createTestHost, waitFor, type TestHost } from '../helpers/host-harness.js';

const KEY = 'fake-key-for-tests-123';
const stack = new CleanupStack();
let fake: FakeGemini;
let h: TestHost;

before(async () => {
  fake = await startFakeModel(stack, KEY);
  h = await createTestHost(stack, { providerOverrides: fakeModelOverrides(fake, KEY) });
});
after(() => stack.run());

/** What one conversation looked like in each list, and where its run events fell between them. */
type Step =
  { kind: 'list'; activeRunId: string | undefined } | { kind: 'run-start' | 'run-end'; runId: string };

/** Record, in order, one conversation's run events and its entry in every `chat.listChanged`. */
function timeline(conversationId: string): Step[] {
  const steps: Step[] = [];
  const offList = h.events.on('chat.listChanged', (list: ConversationSummary[]) => {
    const entry = list.find((c) => c.id === conversationId);
    assert.ok(entry, 'the conversation is in every list');
    steps.push({ kind: 'list', activeRunId: entry.activeRunId });
  });
  const offEvent = h.events.on('chat.event', ({ conversationId: id, event }) => {
    if (id === conversationId && (event.type === 'run-start' || event.type === 'run-end'))
      steps.push({ kind: event.type, runId: event.runId });
  });
  stack.defer(offList);
  stack.defer(offEvent);
  return steps;
}

/** The lists sent between run-start and run-end, and those sent after run-end. */
function split(steps: Step[]): { during: Step[]; afterEnd: Step[] } {
  const start = steps.findIndex((s) => s.kind === 'run-start');
  const end = steps.findIndex((s) => s.kind === 'run-end');
  assert.ok(start >= 0 && end > start, `run-start, then run-end: ${JSON.stringify(steps)}`);
  return {
    during: steps.slice(start + 1, end).filter((s) => s.kind === 'list'),
    afterEnd: steps.slice(end + 1).filter((s) => s.kind === 'list'),
  };
}

test('a run that completes: its lists name it while it runs, and the list after run-end does not', async () => {
  fake.enqueue(reply(text('Hello there.')));
  const conversation = await h.chat.create();
  const steps = timeline(conversation.id);
  const run = await h.chat.send(conversation.id, 'hi');
  assert.equal((await run.done).reason, 'done');

  const { during, afterEnd } = split(steps);
  assert.ok(during.length >= 1, 'a list is sent once the run has started');
  for (const s of during) assert.deepEqual(s, { kind: 'list', activeRunId: run.runId });
  assert.ok(afterEnd.length >= 1, 'a list is sent after the run ends');
  for (const s of afterEnd) assert.deepEqual(s, { kind: 'list', activeRunId: undefined });
  assert.equal((await h.chat.list()).find((c) => c.id === conversation.id)?.activeRunId, undefined);
});

test('a run that is stopped: named while held open, not named once it has ended', async () => {
  fake.enqueue(hold(text('I am thinking very slowly')));
  const conversation = await h.chat.create();
  const steps = timeline(conversation.id);
  const run = await h.chat.send(conversation.id, 'think');

  // send() resolves after its list went out, and that list already names the run.
  assert.deepEqual(
    steps.filter((s) => s.kind === 'list'),
    [{ kind: 'list', activeRunId: run.runId }],
  );
  assert.equal((await h.chat.list()).find((c) => c.id === conversation.id)?.activeRunId, run.runId);
  assert.equal((await h.chat.get(conversation.id)).activeRunId, run.runId);

  await h.chat.stop(conversation.id);
  assert.equal((await run.done).reason, 'stopped');
  await waitFor('a list after run-end', () => (split(steps).afterEnd.length ? true : undefined));
  const { during, afterEnd } = split(steps);
  for (const s of during) assert.deepEqual(s, { kind: 'list', activeRunId: run.runId });
  for (const s of afterEnd) assert.deepEqual(s, { kind: 'list', activeRunId: undefined });
  assert.equal((await h.chat.get(conversation.id)).activeRunId, undefined);
});
