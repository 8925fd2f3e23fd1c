/**
 * MCP Apps, host side, against the example servers from npm over stdio: the extension is
 * declared (the servers then register their view tools), a view opens with its HTML and the
 * spec's default CSP, the CSP applied is audited, app-only tools never reach the model's
 * offer, and a tool without a view says so.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { buildToolOffer } from '../../electron/host/chat/tool-offer.js';
import { toolUiOf } from '../../shared/domain/mcp-apps.js';
import { waitFor } from '../helpers/wait.js';
import {
  appServer,
  CleanupStack,
  createTestHost,
  nodeServer,
  SERVERS,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';

const stack = new CleanupStack();
let h: TestHost;

before(async () => {
  h = await createTestHost(stack, {
    servers: {
      monitor: appServer('systemMonitor'),
      react: appServer('basicReact'),
      ev: nodeServer(SERVERS.everything),
    },
  });
  await Promise.all(['monitor', 'react', 'ev'].map((id) => waitForState(h.host, id, 'connected')));
  h.appViews.attachSandbox({
    originFor: (id) => `http://${id}.localhost:9`,
    pageUrl: (id) => `http://${id}.localhost:9/view/${id}`,
    webRtcBlocked: false,
  });
});
after(() => stack.run());

test('the servers see the extension and link their tools to ui:// views', () => {
  const tools = h.host.catalog().tools.filter((t) => t.serverId === 'monitor');
  const info = tools.find((t) => t.tool.name === 'get-system-info');
  assert.ok(info, 'get-system-info is listed');
  assert.deepEqual(toolUiOf(info.tool), {
    resourceUri: 'ui://system-monitor/mcp-app.html',
    visibility: ['model', 'app'],
  });
  const poll = tools.find((t) => t.tool.name === 'poll-system-stats');
  assert.ok(poll, 'the app-only tool is in the catalog (the inspector shows it)');
  assert.deepEqual(toolUiOf(poll.tool).visibility, ['app']);
});

test('an app-only tool is never offered to the model', () => {
  const plan = buildToolOffer(h.host.catalog(), h.settings.get(), 512);
  const offered = [...plan.byName.values()].map((o) => `${o.serverId}/${o.tool.name}`);
  assert.ok(offered.includes('monitor/get-system-info'));
  assert.ok(!offered.includes('monitor/poll-system-stats'), `offered: ${offered.join(', ')}`);
});

test('a view opens with its HTML and the default CSP, and the CSP is audited', async () => {
  const view = await h.appViews.open({ serverId: 'react', toolName: 'get-time' });
  assert.match(view.viewId, /^[0-9a-f]{32}$/);
  assert.match(view.html, /<html/i);
  assert.equal(view.sandboxUrl, `http://${view.viewId}.localhost:9/view/${view.viewId}`);
  assert.equal(view.sandboxOrigin, `http://${view.viewId}.localhost:9`, 'an origin of its own');
  assert.equal(view.webRtcBlocked, false);
  assert.match(view.cspApplied, /default-src 'none'/);
  assert.match(view.cspApplied, /connect-src 'none'/);
  assert.match(view.cspApplied, /object-src 'none'/);
  assert.equal(h.appViews.policyFor(view.viewId), view.cspApplied);
  await h.audit.flush();
  const records = await h.audit.query({ kind: 'app' });
  const opened = records.find((r) => r.action === 'view-opened' && r.serverId === 'react');
  assert.equal(opened?.details?.csp, view.cspApplied, 'the CSP applied is in the audit log');
  assert.equal(h.appViews.close(view.viewId), true);
  assert.equal(h.appViews.policyFor(view.viewId), undefined, 'a closed view has no page');
  assert.throws(() => h.appViews.view(view.viewId), { code: 'view_closed' });
});

test('two opens of the same view share its document, and each is its own view', async () => {
  const before = h.appViews.list().length;
  const [a, b] = await Promise.all([
    h.appViews.open({ serverId: 'monitor', toolName: 'get-system-info' }),
    h.appViews.open({ serverId: 'monitor', toolName: 'get-system-info' }),
  ]);
  assert.notEqual(a.viewId, b.viewId, 'each open is its own view');
  assert.equal(a.html, b.html);
  assert.equal(h.appViews.list().length, before + 2);
});

test('a tool without a view, and an unknown tool, fail with a clear code', async () => {
  await assert.rejects(h.appViews.open({ serverId: 'ev', toolName: 'echo' }), { code: 'no_view' });
  await assert.rejects(h.appViews.open({ serverId: 'react', toolName: 'nope' }), { code: 'unknown_tool' });
});

test('the sandbox readies each view before its handle goes out, and hears when it closes', async () => {
  const events: string[] = [];
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  h.appViews.attachSandbox({
    originFor: (id) => `http://${id}.localhost:9`,
    pageUrl: (id) => `http://${id}.localhost:9/view/${id}`,
    webRtcBlocked: true,
    opened: async (view) => {
      events.push(`opened ${view.viewId} ${view.serverId}`);
      await held;
    },
    closed: (viewId) => events.push(`closed ${viewId}`),
  });
  try {
    let handed = false;
    const opening = h.appViews.open({ serverId: 'react', toolName: 'get-time' }).then((v) => {
      handed = true;
      return v;
    });
    await waitFor('the sandbox to be told of the view', () => (events.length === 1 ? true : undefined));
    assert.equal(handed, false, 'no handle before the sandbox is ready');
    release();
    const view = await opening;
    assert.deepEqual(events, [`opened ${view.viewId} react`]);
    assert.equal(view.webRtcBlocked, true);
    assert.deepEqual(h.appViews.find(view.viewId)?.csp.connectDomains, [], 'the declared origins are kept');
    h.appViews.close(view.viewId);
    assert.deepEqual(events.slice(1), [`closed ${view.viewId}`]);
  } finally {
    h.appViews.attachSandbox({
      originFor: (id) => `http://${id}.localhost:9`,
      pageUrl: (id) => `http://${id}.localhost:9/view/${id}`,
      webRtcBlocked: false,
    });
  }
});

test('a view whose sandbox cannot be readied is not opened', async () => {
  const before = h.appViews.list().length;
  h.appViews.attachSandbox({
    originFor: (id) => `http://${id}.localhost:9`,
    pageUrl: (id) => `http://${id}.localhost:9/view/${id}`,
    webRtcBlocked: true,
    opened: () => Promise.reject(new Error('no proxy rules')),
  });
  try {
    await assert.rejects(h.appViews.open({ serverId: 'react', toolName: 'get-time' }), {
      code: 'unavailable',
      message: /no proxy rules/,
    });
    assert.equal(h.appViews.list().length, before, 'nothing left open');
  } finally {
    h.appViews.attachSandbox({
      originFor: (id) => `http://${id}.localhost:9`,
      pageUrl: (id) => `http://${id}.localhost:9/view/${id}`,
      webRtcBlocked: false,
    });
  }
});
