/**
 * The hostile MCP App fixture on its own (issue 13, must-show 2): the host connects to it, sees
 * its tools' `_meta.ui` (a view, a model-only and an app-only tool), keeps the app-only tool from
 * the model, and AppViews opens its view with the spec's default CSP. Then its HTML runs in real
 * Chromium under a stub parent written here (a top page on one loopback origin embedding the view
 * from another, served with the CSP AppViews built, answering the View protocol by hand), which
 * proves every attempt runs, records its outcome, and that what the browser must stop is stopped.
 * The real sandbox proxy and bridge are exercised by tests/e2e/mcp-apps-hostile.test.ts.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { buildToolOffer } from '../../electron/host/chat/tool-offer.js';
import { toolUiOf } from '../../shared/domain/mcp-apps.js';
import {
  chromiumSkipReason,
  launchChromium,
  logPageErrors,
  SHOTS_DIR,
  withEvidence,
} from '../helpers/chromium.js';
import {
  assertBrowserBlocked,
  assertProtocolRefused,
  HOSTILE_APP_SERVER,
  readHostileResults,
  startProbeServer,
  type ProbeServer,
} from '../helpers/hostile-app.js';
import { stubParentPage, stubProxyPage } from '../helpers/hostile-app-stub.js';
import {
  CleanupStack,
  createTestHost,
  nodeServer,
  tempDir,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';

const stack = new CleanupStack();
let h: TestHost;
let tracePath: string;

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A loopback HTTP server answering with `handle`; closed at cleanup. */
async function serve(handle: (path: string) => Reply): Promise<string> {
  const server: Server = createServer((req, res) => {
    const { status, headers, body } = handle(req.url ?? '/');
    res.writeHead(status, headers);
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  stack.defer(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

before(async () => {
  const dir = await tempDir(stack);
  tracePath = join(dir, 'trace.jsonl');
  h = await createTestHost(stack, {
    servers: { hostile: nodeServer(HOSTILE_APP_SERVER, [], { env: { HOSTILE_TRACE: tracePath } }) },
  });
  await waitForState(h.host, 'hostile', 'connected');
});
after(() => stack.run());

test('the host reads the fixture tools: a view, a model-only and an app-only tool', () => {
  const tools = new Map(
    h.host
      .catalog()
      .tools.filter((t) => t.serverId === 'hostile')
      .map((t) => [t.tool.name, toolUiOf(t.tool)]),
  );
  const uri = 'ui://hostile/view.html';
  assert.deepEqual(tools.get('show-view'), { resourceUri: uri, visibility: ['model', 'app'] });
  assert.deepEqual(tools.get('model-only'), { resourceUri: uri, visibility: ['model'] });
  assert.deepEqual(tools.get('app-only'), { resourceUri: uri, visibility: ['app'] });
  assert.deepEqual(tools.get('stats'), { visibility: ['model', 'app'] });
  const offered = [...buildToolOffer(h.host.catalog(), h.settings.get(), 512).byName.values()]
    .filter((o) => o.serverId === 'hostile')
    .map((o) => o.tool.name)
    .sort();
  assert.deepEqual(
    offered,
    ['intrude', 'model-only', 'show-view', 'stats'],
    'the app-only tool is not offered',
  );
});

test(
  'the view runs every attempt under a stub parent, and the browser stops each escape',
  { timeout: 90_000 },
  async (t) => {
    if (chromiumSkipReason) {
      t.skip(chromiumSkipReason);
      return;
    }
    const views = new Map<string, { html: string; csp: string }>();
    const sandboxOrigin = await serve((path): Reply => {
      const [, kind, id] = /^\/(proxy|view)\/([0-9a-f]+)$/.exec(path) ?? [];
      const view = views.get(id ?? '');
      if (!view) return { status: 404, headers: {}, body: 'no such view' };
      if (kind === 'proxy')
        return { status: 200, headers: { 'content-type': 'text/html' }, body: stubProxyPage(`/view/${id}`) };
      return {
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': view.csp },
        body: view.html,
      };
    });
    h.appViews.attachSandbox({
      originFor: () => sandboxOrigin,
      pageUrl: (id) => `${sandboxOrigin}/proxy/${id}`,
      webRtcBlocked: false,
    });
    const handle = await h.appViews.open({ serverId: 'hostile', toolName: 'show-view' });
    assert.match(handle.html, /<pre id="results"/);
    assert.match(handle.cspApplied, /connect-src 'none'/);
    views.set(handle.viewId, { html: handle.html, csp: handle.cspApplied });

    const probe: ProbeServer = await startProbeServer();
    stack.defer(() => probe.close());
    const token = randomBytes(16).toString('hex');
    const appOrigin = await serve(() => ({
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: stubParentPage({
        proxyUrl: handle.sandboxUrl,
        sandboxOrigin,
        token,
        toolInput: { probeUrl: probe.url, otherTool: 'echo' },
      }),
    }));

    const browser: Browser = await launchChromium();
    stack.defer(() => browser.close());
    const context = await browser.newContext();
    const page = await context.newPage();
    const popups: Page[] = [];
    context.on('page', (p) => popups.push(p));
    logPageErrors(page);
    const start = `${appOrigin}/#token=${token}`;
    await withEvidence(page, 'hostile-app-fixture', async () => {
      await page.goto(start);
      const results = await readHostileResults(page.frameLocator('#view').frameLocator('#view'));
      // Kept as an artifact: what each attempt met, in the browser's own words.
      mkdirSync(SHOTS_DIR, { recursive: true });
      writeFileSync(join(SHOTS_DIR, 'hostile-app-fixture-results.json'), JSON.stringify(results, null, 2));
      assert.equal(results.initialize, 'ok');
      assert.deepEqual(results.toolInput, { probeUrl: probe.url, otherTool: 'echo' });
      assertBrowserBlocked(results, probe, token);
      assertProtocolRefused(results);
      // The stub answers like the host should: refusals name their reason.
      assert.match(JSON.stringify(results.modelOnlyTool.error), /app_call_refused/);
      assert.match(JSON.stringify(results.otherServerTool.plain.error), /app_call_refused/);

      assert.equal(page.url(), `${appOrigin}/`, 'the top page never navigated (the stub drops the hash)');
      assert.equal(popups.length, 0, 'no popup opened');
      const log = await page.evaluate(() => (globalThis as unknown as { stubLog: string[] }).stubLog);
      assert.ok(
        log.filter((l) => l.startsWith('malformed')).length >= 5,
        `the stub saw the malformed messages: ${log.join(' | ')}`,
      );
      assert.ok(log.includes('ignored: not from the view frame'), 'the message around the frame was ignored');
      assert.ok(await page.locator('#secret').isVisible(), 'the app page is intact');
    });
    // The stub never forwards to the server: nothing reached it but what the host itself called.
    assert.throws(() => readFileSync(tracePath, 'utf8'), { code: 'ENOENT' });
  },
);
