/**
 * The MCP Apps sandbox (issues 13 and 28): what browser mode's second loopback listener and the
 * desktop app's scheme serve. Each open view has an origin of its own (`<viewId>.localhost:<port>`,
 * `mcp-desk-sandbox://<viewId>`); on it, only that view's proxy page (under its CSP plus
 * frame-ancestors, never cached, nosniff, focus policy denied), the proxy script and the forget
 * page; anything else is refused; and every response, refusals included, carries a strict CSP.
 * The Electron side runs against the recording fake of `electron`.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { register } from 'node:module';
import { request } from 'node:http';
import { startSandboxServer, viewIdOfHost } from '../../electron/headless/sandbox-server.js';
import { proxyPage } from '../../electron/host/apps/sandbox-page.js';
import { appCsp } from '../../electron/headless/static-files.js';

register('../helpers/fake-electron-hooks.mjs', import.meta.url);
const fake = await import('../helpers/fake-electron.js');
const scheme = await import('../../electron/main/sandbox-scheme.js');

const VIEW = 'ab'.repeat(16);
const OTHER = 'cd'.repeat(16);
const CSP = "default-src 'none'; script-src 'self' 'unsafe-inline'; object-src 'none'";
const site = {
  policyFor: (id: string) => (id === VIEW ? CSP : undefined),
  script: async () => 'console.log("proxy")',
};
const STRICT = /^default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; sandbox$/;

type Answer = { status: number; headers: Record<string, unknown>; body: string };

function get(port: number, path: string, host: string, method = 'GET') {
  return new Promise<Answer>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('browser mode sandbox listener', () => {
  it('gives each view an origin of its own and serves its page under its CSP, framed only by the app', async () => {
    const sandbox = await startSandboxServer({ ...site, appOrigin: () => 'http://127.0.0.1:4000' });
    try {
      const host = `${VIEW}.localhost:${sandbox.port}`;
      assert.equal(sandbox.originFor(VIEW), `http://${host}`);
      assert.equal(sandbox.pageUrl(VIEW), `http://${host}/view/${VIEW}`);
      assert.notEqual(sandbox.originFor(VIEW), sandbox.originFor(OTHER), 'no two views share an origin');
      assert.equal(sandbox.frameSource, `http://*.localhost:${sandbox.port}/view/`);
      assert.equal(sandbox.webRtcBlocked, false, 'browser mode cannot block WebRTC, so it says so');
      const page = await get(sandbox.port, `/view/${VIEW}`, host);
      assert.equal(page.status, 200);
      assert.equal(page.headers['content-security-policy'], `${CSP}; frame-ancestors http://127.0.0.1:4000`);
      assert.equal(page.headers['permissions-policy'], 'focus-without-user-activation=()');
      assert.equal(page.headers['x-content-type-options'], 'nosniff');
      assert.equal(page.headers['cache-control'], 'no-store');
      assert.match(page.body, /data-host-origin="http:\/\/127\.0\.0\.1:4000"/);
      assert.match(page.body, /<script src="\/sandbox-proxy\.js"><\/script>/);
      const script = await get(sandbox.port, '/sandbox-proxy.js', host);
      assert.equal(script.status, 200);
      assert.match(String(script.headers['content-type']), /javascript/);
      assert.match(String(script.headers['content-security-policy']), STRICT);
      assert.equal(script.body, 'console.log("proxy")');
      const forget = await get(sandbox.port, `/view/${VIEW}/forget`, host);
      assert.equal(forget.status, 200);
      assert.equal(forget.headers['clear-site-data'], '"cache", "cookies", "storage"');
      assert.match(
        String(forget.headers['content-security-policy']),
        /frame-ancestors http:\/\/127\.0\.0\.1:4000; sandbox$/,
      );
    } finally {
      await sandbox.close();
    }
  });

  it('refuses every other host, path and method, each under a strict CSP', async () => {
    const sandbox = await startSandboxServer({ ...site, appOrigin: () => 'http://127.0.0.1:4000' });
    try {
      const port = sandbox.port;
      const own = `${VIEW}.localhost:${port}`;
      const refusals: [string, string, number, string?][] = [
        [`/view/${OTHER}`, own, 404],
        [`/view/${VIEW}/../x`, own, 404],
        ['/no-such-page', own, 404],
        ['/', own, 404],
        ['/bridge', own, 404],
        [`/view/${VIEW}`, `${OTHER}.localhost:${port}`, 421],
        [`/view/${VIEW}`, `127.0.0.1:${port}`, 421],
        [`/view/${VIEW}`, `localhost:${port}`, 421],
        [`/view/${VIEW}`, `${VIEW}.localhost:${port + 1}`, 421],
        [`/view/${VIEW}`, `${VIEW}.localhost.evil.example:${port}`, 421],
        ['/sandbox-proxy.js', 'evil.example', 421],
        [`/view/${VIEW}`, own, 405, 'POST'],
      ];
      for (const [path, host, status, method] of refusals) {
        const answer = await get(port, path, host, method);
        assert.equal(answer.status, status, `${method ?? 'GET'} ${host}${path}`);
        assert.match(
          String(answer.headers['content-security-policy']),
          STRICT,
          `${host}${path} has a strict CSP`,
        );
        assert.doesNotMatch(answer.body, /<script/);
      }
    } finally {
      await sandbox.close();
    }
  });

  it('reads a view id only from exactly `<id>.localhost:<its port>`', () => {
    assert.equal(viewIdOfHost(`${VIEW}.localhost:4100`, 4100), VIEW);
    assert.equal(viewIdOfHost(`${VIEW}.localhost:4101`, 4100), undefined);
    assert.equal(viewIdOfHost(`${VIEW.toUpperCase()}.localhost:4100`, 4100), undefined);
    assert.equal(viewIdOfHost(`x${VIEW}.localhost:4100`, 4100), undefined);
    assert.equal(viewIdOfHost(undefined, 4100), undefined);
  });

  it("limits the app's frames to view pages", () => {
    assert.match(appCsp('http://*.localhost:4100/view/'), /frame-src http:\/\/\*\.localhost:4100\/view\/;/);
    assert.match(appCsp(), /frame-src 'none'/);
  });

  it('escapes the app origin it writes into the page', () => {
    assert.doesNotMatch(proxyPage('x"><script>alert(1)</script>'), /"><script>alert/);
  });
});

describe('desktop sandbox scheme', () => {
  it('registers a standard, secure scheme without CSP bypass, and serves each view on a host of its own', async () => {
    scheme.registerSandboxScheme();
    const entry = fake.privilegedSchemes.find((s) => s.scheme === scheme.SANDBOX_SCHEME);
    assert.deepEqual(entry?.privileges, { standard: true, secure: true });
    const endpoint = scheme.serveSandboxScheme(site, { webRtcBlocked: true });
    assert.equal(endpoint.originFor(VIEW), `mcp-desk-sandbox://${VIEW}`);
    assert.equal(endpoint.pageUrl(VIEW), `mcp-desk-sandbox://${VIEW}/view/${VIEW}`);
    assert.equal(endpoint.webRtcBlocked, true);
    assert.equal(scheme.viewIdOfOrigin(`mcp-desk-sandbox://${VIEW}`), VIEW);
    assert.equal(scheme.viewIdOfOrigin('mcp-desk-sandbox://sandbox'), undefined);
    const handler = fake.protocolHandlers.get(scheme.SANDBOX_SCHEME);
    assert.ok(handler, 'protocol.handle was called for the scheme');
    const page = await handler(new Request(endpoint.pageUrl(VIEW)));
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-security-policy'), `${CSP}; frame-ancestors file:`);
    assert.equal(page.headers.get('permissions-policy'), 'focus-without-user-activation=()');
    assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
    assert.match(await page.text(), /data-host-origin="file:\/\/"/);
    const script = await handler(new Request(`mcp-desk-sandbox://${VIEW}/sandbox-proxy.js`));
    assert.equal(await script.text(), 'console.log("proxy")');
    for (const url of [
      `mcp-desk-sandbox://${VIEW}/view/${OTHER}`,
      `mcp-desk-sandbox://${OTHER}/view/${OTHER}`,
      `mcp-desk-sandbox://${OTHER}/sandbox-proxy.js`,
      `mcp-desk-sandbox://sandbox/view/${VIEW}`,
      `mcp-desk-sandbox://${VIEW}/no-such-page`,
    ]) {
      const answer = await handler(new Request(url));
      assert.equal(answer.status, 404, url);
      assert.match(answer.headers.get('content-security-policy') ?? '', STRICT, `${url} has a strict CSP`);
    }
  });
});
