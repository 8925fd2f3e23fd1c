/**
 * What an MCP App view may ask of the host, through the router (the contract a frame uses),
 * against real servers: the system-monitor and basic-react examples from npm, server-everything
 * and our visibility fixture. A view calls only its own server's tools whose visibility includes
 * "app", through the same approval policy as the model (answered here through the broker), at a
 * bounded rate; its messages and model context reach the (fake) Gemini; bad input is refused.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { ToolApprovalRequest } from '../../shared/domain/chat.js';
import type { AppViewHandle } from '../../shared/domain/mcp-apps.js';
import type { CallToolResult } from '../../shared/domain/mcp-types.js';
import { MAX_OPEN_VIEWS } from '../../electron/host/apps/app-views.js';
import type { HostError } from '../../shared/ipc/host-error.js';
import { partsOf, reply, text, type FakeGemini } from '../fixtures/fake-gemini.js';
import { fakeModelOverrides, startFakeModel } from '../helpers/fake-model.js';
import {
  appServer,
  CleanupStack,
  createTestHost,
  nodeServer,
  REPO_ROOT,
  SERVERS,
  textOf,
  waitFor,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';

const KEY = 'fake-key-for-app-requests';
const VIS = join(REPO_ROOT, 'tests/fixtures/app-visibility-server.mjs');
const stack = new CleanupStack();
let fake: FakeGemini;
let h: TestHost;
const opened: string[] = [];

before(async () => {
  fake = await startFakeModel(stack, KEY);
  h = await createTestHost(stack, {
    servers: {
      monitor: { ...appServer('systemMonitor'), trust: 'trusted' },
      react: appServer('basicReact'),
      vis: nodeServer(VIS),
      ev: nodeServer(SERVERS.everything),
    },
    providerOverrides: fakeModelOverrides(fake, KEY),
    openExternal: async (url) => void opened.push(url),
  });
  await Promise.all(['monitor', 'react', 'vis', 'ev'].map((id) => waitForState(h.host, id, 'connected')));
  h.appViews.attachSandbox({
    originFor: (id) => `http://${id}.localhost:9`,
    pageUrl: (id) => `http://${id}.localhost:9/view/${id}`,
    webRtcBlocked: false,
  });
});
after(() => stack.run());

/** Route a request as a frame would; the value, or the HostError it was refused with. */
async function route<T>(
  channel: string,
  payload: unknown,
): Promise<{ ok: true; value: T } | { ok: false; error: HostError }> {
  const r = await h.router.handle(channel, payload);
  return r.ok ? { ok: true, value: r.value as T } : r;
}

async function refusal(channel: string, payload: unknown): Promise<HostError> {
  const r = await route(channel, payload);
  assert.ok(!r.ok, `${channel} should be refused`);
  return r.error;
}

async function openView(serverId: string, tool: string, conversationId?: string): Promise<AppViewHandle> {
  const r = await route<AppViewHandle>('apps.open', {
    serverId,
    tool,
    ...(conversationId ? { conversationId } : {}),
  });
  assert.ok(r.ok, r.ok ? '' : r.error.message);
  return r.value;
}

async function nextApproval(): Promise<ToolApprovalRequest> {
  return waitFor('a tool approval', () =>
    h.broker.list().find((r): r is ToolApprovalRequest => r.kind === 'tool-approval'),
  );
}

test("a view calls its server's app-only tool, and the audit says the view asked", async () => {
  const view = await openView('monitor', 'get-system-info');
  const r = await route<CallToolResult>('apps.callTool', {
    viewId: view.viewId,
    tool: 'poll-system-stats',
    args: {},
  });
  assert.ok(r.ok, r.ok ? '' : r.error.message);
  assert.notEqual(r.value.isError, true);
  assert.ok(
    r.value.structuredContent && 'memory' in r.value.structuredContent,
    JSON.stringify(r.value).slice(0, 200),
  );
  await h.audit.flush();
  const start = (await h.audit.query({ kind: 'tool-call', serverId: 'monitor' })).find(
    (x) => x.action === 'call-start' && x.details?.tool === 'poll-system-stats',
  );
  assert.equal(start?.details?.fromView, 'get-system-info');
});

test("a view cannot call another server's tools, nor a model-only tool of its own server", async () => {
  const monitor = await openView('monitor', 'get-system-info');
  for (const tool of ['echo', 'get-time']) {
    const e = await refusal('apps.callTool', { viewId: monitor.viewId, tool, args: { message: 'x' } });
    assert.equal(e.code, 'app_call_refused', `${tool}: ${e.message}`);
  }
  const vis = await openView('vis', 'show-panel');
  const e = await refusal('apps.callTool', { viewId: vis.viewId, tool: 'model-only', args: {} });
  assert.equal(e.code, 'app_call_refused');
  assert.match(e.message, /model only/);
  assert.equal(h.broker.list().length, 0, 'a refused call never reaches an approval card');
  await h.audit.flush();
  const refused = (await h.audit.query({ kind: 'app', serverId: 'vis' })).find(
    (x) => x.action === 'tool-call-refused',
  );
  assert.equal(refused?.details?.calledTool, 'model-only');
});

test("an untrusted server's app call waits for the person; the card says the view asked", async () => {
  const view = await openView('vis', 'show-panel');
  const allowed = route<CallToolResult>('apps.callTool', {
    viewId: view.viewId,
    tool: 'app-only',
    args: { value: 'first' },
  });
  const card = await nextApproval();
  assert.deepEqual(card.fromView, { tool: 'show-panel', viewId: view.viewId });
  assert.equal(card.serverId, 'vis');
  assert.equal(card.tool, 'app-only');
  assert.deepEqual(card.args, { value: 'first' });
  assert.ok(h.broker.respond(card.id, { kind: 'tool-approval', choice: 'once' }));
  const r = await allowed;
  assert.ok(r.ok, r.ok ? '' : r.error.message);
  assert.equal(textOf(r.value), 'app-only ran: first');

  const denied = route('apps.callTool', { viewId: view.viewId, tool: 'app-only', args: { value: 'second' } });
  const again = await nextApproval();
  assert.ok(h.broker.respond(again.id, { kind: 'tool-approval', choice: 'deny' }));
  const d = await denied;
  assert.ok(!d.ok);
  assert.equal(d.error.code, 'app_call_refused');

  const closing = route('apps.callTool', { viewId: view.viewId, tool: 'app-only', args: {} });
  await nextApproval();
  await route('apps.close', { viewId: view.viewId });
  const c = await closing;
  assert.ok(!c.ok, 'closing the view cancels the approval it waits on');
  assert.equal(h.broker.list().length, 0);
});

test('a view evicted past the open-view cap ends the approval it waits on', async () => {
  const view = await openView('vis', 'show-panel');
  const waiting = route('apps.callTool', { viewId: view.viewId, tool: 'app-only', args: {} });
  await nextApproval();
  const others = [];
  for (let i = 0; i < MAX_OPEN_VIEWS; i++) others.push(await openView('vis', 'show-panel'));
  const w = await waiting;
  assert.ok(!w.ok, 'the evicted view no longer waits on the person');
  assert.equal(h.broker.list().length, 0, 'its approval card is gone');
  for (const o of others) await route('apps.close', { viewId: o.viewId });
});

test('a tight loop of calls is rate limited', async () => {
  const view = await openView('vis', 'show-panel');
  const codes = new Map<string, number>();
  for (let i = 0; i < 60; i++) {
    const e = await refusal('apps.callTool', { viewId: view.viewId, tool: 'model-only', args: {} });
    codes.set(e.code, (codes.get(e.code) ?? 0) + 1);
  }
  assert.ok((codes.get('rate_limited') ?? 0) > 0, JSON.stringify([...codes]));
  assert.ok((codes.get('app_call_refused') ?? 0) >= 20, 'the burst goes through to the checks');
  await h.audit.flush();
  const limited = (await h.audit.query({ kind: 'app', serverId: 'vis' })).filter(
    (x) => x.action === 'tool-call-rate-limited',
  );
  assert.equal(limited.length, 1, 'a flood is audited once');
});

test('malformed or stale requests are refused without harm', async () => {
  const view = await openView('vis', 'show-panel');
  const stranger = 'f'.repeat(32);
  assert.equal(
    (await refusal('apps.callTool', { viewId: stranger, tool: 'app-only', args: {} })).code,
    'view_closed',
  );
  assert.equal(
    (await refusal('apps.callTool', { viewId: 'nope', tool: 'app-only', args: {} })).code,
    'invalid_request',
  );
  assert.equal(
    (await refusal('apps.callTool', { viewId: view.viewId, tool: 'app-only', args: [1] })).code,
    'invalid_request',
  );
  assert.equal(
    (await refusal('apps.callTool', { viewId: view.viewId, tool: 'app-only', args: {}, evil: 1 })).code,
    'invalid_request',
  );
  assert.equal(
    (await refusal('apps.log', { viewId: view.viewId, level: 'shout', data: 'x' })).code,
    'invalid_request',
  );
  assert.equal(
    (await refusal('apps.openLink', { viewId: view.viewId, url: 'javascript:alert(1)' })).code,
    'app_call_refused',
  );
  assert.equal(
    (await refusal('apps.message', { viewId: view.viewId, content: [{ type: 'text', text: 'hi' }] })).code,
    'app_call_refused',
    'no conversation, no message',
  );
  await route('apps.close', { viewId: view.viewId });
  for (const [channel, payload] of [
    ['apps.callTool', { viewId: view.viewId, tool: 'app-only', args: {} }],
    ['apps.readResource', { viewId: view.viewId, uri: 'ui://visibility/panel.html' }],
    ['apps.log', { viewId: view.viewId, level: 'info', data: 'x' }],
    ['apps.updateModelContext', { viewId: view.viewId, content: [] }],
    ['apps.openLink', { viewId: view.viewId, url: 'https://example.com/' }],
  ] as const)
    assert.equal((await refusal(channel, payload)).code, 'view_closed', channel);
  assert.equal(opened.length, 0, 'nothing was opened');
});

test('reads, logs and links: own server only, into its log, through the checked opener', async () => {
  const view = await openView('vis', 'show-panel');
  const read = await route<{ contents: { text?: string }[] }>('apps.readResource', {
    viewId: view.viewId,
    uri: 'ui://visibility/panel.html',
  });
  assert.ok(read.ok && read.value.contents[0]?.text?.includes('visibility panel'));
  const monitor = await openView('monitor', 'get-system-info');
  const foreign = await refusal('apps.readResource', {
    viewId: monitor.viewId,
    uri: 'ui://visibility/panel.html',
  });
  assert.notEqual(
    foreign.code,
    'view_closed',
    'the read went to the monitor server, which has no such resource',
  );

  assert.ok(
    (await route('apps.log', { viewId: view.viewId, level: 'warning', logger: 'panel', data: { n: 42 } })).ok,
  );
  await route('apps.log', { viewId: view.viewId, level: 'info', data: 'y'.repeat(50_000) });
  const lines = h.host
    .log('vis')
    .filter((l) => l.stream === 'server-log')
    .map((l) => l.text);
  assert.ok(
    lines.some((l) => l.includes('[warning] view of show-panel panel: {"n":42}')),
    lines.join('\n'),
  );
  assert.ok(
    lines.every((l) => l.length < 5000),
    'a huge log entry is clipped',
  );

  const link = await route<{ opened: boolean }>('apps.openLink', {
    viewId: view.viewId,
    url: 'https://example.com/docs?x=1',
  });
  assert.ok(link.ok && link.value.opened);
  assert.deepEqual(opened, ['https://example.com/docs?x=1']);
});

test('grants and the views switch are kept per server, listed and revocable', async () => {
  const set = await route<string[]>('apps.setPermissions', {
    serverId: 'vis',
    permissions: ['camera', 'microphone'],
  });
  assert.ok(set.ok);
  const view = await openView('vis', 'show-panel');
  assert.deepEqual(view.permissions.requested, ['camera', 'clipboardWrite']);
  assert.deepEqual(view.permissions.granted, ['camera'], 'never more than the view asked for');
  const vis = () => h.permissions.list().find((p) => p.serverId === 'vis');
  assert.deepEqual(vis()?.apps?.permissions, ['camera', 'microphone']);
  assert.ok((await route('permissions.revoke', { serverId: 'vis', kind: 'app-permissions' })).ok);
  assert.equal(vis()?.apps, undefined);

  assert.ok((await route('apps.setViewsEnabled', { serverId: 'vis', enabled: false })).ok);
  assert.equal(vis()?.apps?.viewsEnabled, false);
  assert.equal((await refusal('apps.open', { serverId: 'vis', tool: 'show-panel' })).code, 'no_view');
  // Revoke all takes back permissions, not this preference.
  await route('apps.setPermissions', { serverId: 'vis', permissions: ['camera'] });
  assert.ok((await route('permissions.revokeServer', { serverId: 'vis' })).ok);
  assert.deepEqual(vis()?.apps?.permissions ?? [], [], 'Revoke all took the grants back');
  assert.equal(vis()?.apps?.viewsEnabled, false, 'and kept views off');
  await route('apps.setViewsEnabled', { serverId: 'vis', enabled: true });
  assert.equal(vis()?.apps, undefined, 'back at the default');
  assert.equal(
    (await refusal('apps.setPermissions', { serverId: 'ghost', permissions: [] })).code,
    'unknown_server',
  );
  await h.audit.flush();
  const actions = (await h.audit.query({ kind: 'app', serverId: 'vis' })).map((r) => r.action);
  for (const a of ['permissions-set', 'views-disabled', 'views-enabled']) assert.ok(actions.includes(a), a);
});

test("ui/message runs the model as the view's message; model context reaches the next turn", async () => {
  const conversation = await h.chat.create('apps');
  const view = await openView('vis', 'show-panel', conversation.id);
  const ctx = await route('apps.updateModelContext', {
    viewId: view.viewId,
    content: [{ type: 'text', text: 'panel shows 3 selected rows' }],
    structuredContent: { selected: 3 },
  });
  assert.ok(ctx.ok);
  // The latest replaces the previous one.
  await route('apps.updateModelContext', {
    viewId: view.viewId,
    content: [{ type: 'text', text: 'panel shows 7 selected rows' }],
  });

  fake.enqueue(reply(text('Noted, seven rows.')));
  const before = fake.generateRequests().length;
  const sent = await route<{ runId?: string }>('apps.message', {
    viewId: view.viewId,
    content: [{ type: 'text', text: 'Summarise my selection' }],
  });
  assert.ok(sent.ok && sent.value.runId, sent.ok ? '' : sent.error.message);
  await waitFor('the run to end', async () =>
    (await h.chat.get(conversation.id)).activeRunId === undefined ? true : undefined,
  );
  const stored = await h.chat.get(conversation.id);
  const user = stored.messages.find((m) => m.role === 'user');
  assert.deepEqual(user?.origin, { kind: 'app', serverId: 'vis', tool: 'show-panel' });
  assert.deepEqual(stored.messages.at(-1)?.parts, [{ type: 'text', text: 'Noted, seven rows.' }]);

  const request = fake.generateRequests()[before];
  assert.ok(request, 'the model was asked');
  const userTexts = partsOf(request)
    .filter((p) => p.role === 'user')
    .map((p) => (typeof p.part.text === 'string' ? p.part.text : ''));
  const all = userTexts.join('\n');
  assert.ok(all.includes('Summarise my selection'), all);
  assert.ok(
    all.includes('sent by the interactive view of the tool "show-panel"'),
    'the model is told the view wrote it',
  );
  assert.ok(all.includes('panel shows 7 selected rows'), 'the latest context reached the model');
  assert.ok(!all.includes('3 selected rows'), 'the replaced context did not');

  // Closed, the view's context is gone from later turns.
  await route('apps.close', { viewId: view.viewId });
  fake.enqueue(reply(text('ok')));
  const n = fake.generateRequests().length;
  const { done } = await h.chat.send(conversation.id, 'and now?');
  await done;
  const later = partsOf(fake.generateRequests()[n])
    .map((p) => (typeof p.part.text === 'string' ? p.part.text : ''))
    .join('\n');
  assert.ok(!later.includes('selected rows'), later);
});
