/**
 * Which answers an MCP App view's approval card offers, and what each covers (issue 24 §1),
 * through the router a frame uses, against our visibility fixture server: outside a chat the
 * card offers nothing "for this chat" and the host refuses that answer; "Allow this view's
 * calls" lets that view's later calls run until it closes (a new view asks again); and the
 * approval that ran a chat's call of an App tool covers its view's calls of that same tool,
 * not of another, nor for a view of a call that was denied.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { approvalChoices } from '../../shared/domain/approval-choices.js';
import type { ToolApprovalRequest } from '../../shared/domain/chat.js';
import type { AppViewHandle } from '../../shared/domain/mcp-apps.js';
import type { CallToolResult } from '../../shared/domain/mcp-types.js';
import type { HostError } from '../../shared/ipc/host-error.js';
import { functionCall, reply, text, type FakeGemini } from '../fixtures/fake-gemini.js';
import { fakeModelOverrides, startFakeModel } from '../helpers/fake-model.js';
import {
  CleanupStack,
  createTestHost,
  nodeServer,
  REPO_ROOT,
  textOf,
  waitFor,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';

const KEY = 'fake-key-for-app-approvals';
const VIS = join(REPO_ROOT, 'tests/fixtures/app-visibility-server.mjs');
const stack = new CleanupStack();
let fake: FakeGemini;
let h: TestHost;

before(async () => {
  fake = await startFakeModel(stack, KEY);
  h = await createTestHost(stack, {
    servers: { vis: nodeServer(VIS) },
    providerOverrides: fakeModelOverrides(fake, KEY),
  });
  await waitForState(h.host, 'vis', 'connected');
  h.appViews.attachSandbox({
    originFor: (id) => `http://${id}.localhost:9`,
    pageUrl: (id) => `http://${id}.localhost:9/view/${id}`,
    webRtcBlocked: false,
  });
});
after(() => stack.run());

type Routed<T> = { ok: true; value: T } | { ok: false; error: HostError };

async function route<T>(channel: string, payload: unknown): Promise<Routed<T>> {
  const r = await h.router.handle(channel, payload);
  return r.ok ? { ok: true, value: r.value as T } : r;
}

async function openView(req: Record<string, unknown>): Promise<AppViewHandle> {
  const r = await route<AppViewHandle>('apps.open', { serverId: 'vis', tool: 'show-panel', ...req });
  assert.ok(r.ok, r.ok ? '' : r.error.message);
  return r.value;
}

function approvals(): ToolApprovalRequest[] {
  return h.broker.list().filter((r): r is ToolApprovalRequest => r.kind === 'tool-approval');
}

/** The view's call: `ran` when it ran without a card, else the card it waits on (the call still pending). */
async function viewCall(
  viewId: string,
  tool: string,
): Promise<
  { ran: Routed<CallToolResult> } | { card: ToolApprovalRequest; call: Promise<Routed<CallToolResult>> }
> {
  const call = route<CallToolResult>('apps.callTool', { viewId, tool, args: { value: tool } });
  const first = await Promise.race([
    call.then((ran) => ({ ran })),
    waitFor('an approval', () => approvals()[0]).then((card) => ({ card })),
  ]);
  return 'ran' in first ? first : { card: first.card, call };
}

test('outside a chat a view\'s card offers no "for this chat", and the host refuses that answer', async () => {
  const view = await openView({});
  const asked = await viewCall(view.viewId, 'app-only');
  assert.ok('card' in asked, 'an untrusted server asks');
  const { card } = asked;
  assert.deepEqual(card.fromView, { tool: 'show-panel', viewId: view.viewId });
  assert.equal(card.appOnly, true, 'the model is never offered app-only');
  assert.deepEqual(approvalChoices(card), ['once', 'view', 'always', 'deny']);
  const refused = await route('pending.respond', { id: card.id, choice: 'chat' });
  assert.ok(!refused.ok && refused.error.code === 'invalid_request', 'an answer the card does not offer');
  assert.equal(approvals().length, 1, 'the card still waits');
  assert.ok(h.broker.respond(card.id, { kind: 'tool-approval', choice: 'deny' }));
  assert.ok(!(await asked.call).ok);
  await route('apps.close', { viewId: view.viewId });
});

test('"Allow this view\'s calls" lets that view\'s later calls run until it closes', async () => {
  const view = await openView({});
  const asked = await viewCall(view.viewId, 'app-only');
  assert.ok('card' in asked);
  assert.ok(h.broker.respond(asked.card.id, { kind: 'tool-approval', choice: 'view' }));
  const first = await asked.call;
  assert.ok(first.ok && textOf(first.value) === 'app-only ran: app-only');
  for (const tool of ['app-only', 'show-panel']) {
    const again = await viewCall(view.viewId, tool);
    assert.ok('ran' in again && again.ran.ok, `${tool} ran without a card`);
  }
  await route('apps.close', { viewId: view.viewId });

  const other = await openView({});
  const fresh = await viewCall(other.viewId, 'app-only');
  assert.ok('card' in fresh, 'another view of the same tool asks again');
  h.broker.respond(fresh.card.id, { kind: 'tool-approval', choice: 'deny' });
  await fresh.call;
  await route('apps.close', { viewId: other.viewId });
});

/** A conversation whose model calls show-panel, answered `choice`; its id and the call's id. */
async function chatCall(choice: 'once' | 'deny'): Promise<{ conversationId: string; callId: string }> {
  const conversation = await h.chat.create('app approvals');
  fake.enqueue(reply(functionCall('vis__show-panel', { label: 'x' })), reply(text('done')));
  const { done } = await h.chat.send(conversation.id, 'show the panel');
  const card = await waitFor('the model call to ask', () => approvals()[0]);
  assert.ok(h.broker.respond(card.id, { kind: 'tool-approval', choice }));
  await done;
  const stored = await h.chat.get(conversation.id);
  const call = stored.messages.flatMap((m) => m.parts).find((p) => p.type === 'tool_call');
  assert.ok(call?.type === 'tool_call');
  return { conversationId: conversation.id, callId: call.call.id };
}

test("the approval that ran a chat's App tool covers its view's calls of that tool only", async () => {
  const ran = await chatCall('once');
  const view = await openView({ conversationId: ran.conversationId, toolCallId: ran.callId });
  const same = await viewCall(view.viewId, 'show-panel');
  assert.ok('ran' in same && same.ran.ok, 'the same tool ran without a second card');
  const other = await viewCall(view.viewId, 'app-only');
  assert.ok('card' in other, 'another tool still asks');
  assert.deepEqual(other.card.fromView, {
    tool: 'show-panel',
    viewId: view.viewId,
    toolCallId: ran.callId,
  });
  assert.ok(approvalChoices(other.card).includes('chat'), 'in a chat, "for this chat" is offered');
  h.broker.respond(other.card.id, { kind: 'tool-approval', choice: 'deny' });
  await other.call;
  await route('apps.close', { viewId: view.viewId });

  const denied = await chatCall('deny');
  const stale = await openView({ conversationId: denied.conversationId, toolCallId: denied.callId });
  const asked = await viewCall(stale.viewId, 'show-panel');
  assert.ok('card' in asked, 'a denied call covers nothing');
  h.broker.respond(asked.card.id, { kind: 'tool-approval', choice: 'deny' });
  await asked.call;
  await route('apps.close', { viewId: stale.viewId });
});
