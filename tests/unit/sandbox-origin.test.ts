/**
 * The MCP Apps sandbox origin (issue 13 item 2): what browser mode's second loopback listener
 * and the desktop app's scheme serve. Only an open view's proxy page (under that view's CSP as
 * a header, never cached, nosniff) and the proxy script; anything else is not found. The
 * Electron side runs against the recording fake of `electron`.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { register } from 'node:module';
import { request } from 'node:http';
import { startSandboxServer } from '../../electron/headless/sandbox-server.js';
import { proxyPage } from '../../electron/host/apps/sandbox-page.js';

register('../helpers/fake-electron-hooks.mjs', import.meta.url);
const fake = await import('../helpers/fake-electron.js');
const scheme = await import('../../electron/main/sandbox-scheme.js');

const VIEW = 'ab'.repeat(16);
const CSP = "default-src 'none'; script-src 'self' 'unsafe-inline'; object-src 'none'";
const site = {
  policyFor: (id: string) => (id === VIEW ? CSP : undefined),
  script: async () => 'console.log("proxy")',
};

function get(port: number, path: string, host = `127.0.0.1:${port}`) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    },
  );
}

describe('browser mode sandbox listener', () => {
  it('serves the proxy page under the view CSP, the script, and nothing else', async () => {
    const sandbox = await startSandboxServer({ ...site, appOrigin: () => 'http://127.0.0.1:4000' });
    try {
      assert.equal(sandbox.origin, `http://127.0.0.1:${sandbox.port}`);
      const page = await get(sandbox.port, new URL(sandbox.pageUrl(VIEW)).pathname);
      assert.equal(page.status, 200);
      assert.equal(page.headers['content-security-policy'], CSP);
      assert.equal(page.headers['x-content-type-options'], 'nosniff');
      assert.equal(page.headers['cache-control'], 'no-store');
      assert.match(page.body, /data-host-origin="http:\/\/127\.0\.0\.1:4000"/);
      assert.match(page.body, /<script src="\/sandbox-proxy\.js"><\/script>/);
      const script = await get(sandbox.port, '/sandbox-proxy.js');
      assert.equal(script.status, 200);
      assert.match(String(script.headers['content-type']), /javascript/);
      assert.equal(script.body, 'console.log("proxy")');
      assert.equal((await get(sandbox.port, `/view/${'cd'.repeat(16)}`)).status, 404, 'unknown view');
      assert.equal((await get(sandbox.port, '/view/../index.html')).status, 404);
      assert.equal((await get(sandbox.port, '/')).status, 404, 'no app files');
      assert.equal((await get(sandbox.port, '/bridge')).status, 404, 'no bridge');
      assert.equal((await get(sandbox.port, '/sandbox-proxy.js', 'evil.example')).status, 421);
    } finally {
      await sandbox.close();
    }
  });

  it('escapes the app origin it writes into the page', () => {
    assert.doesNotMatch(proxyPage('x"><script>alert(1)</script>'), /"><script>alert/);
  });
});

describe('desktop sandbox scheme', () => {
  it('registers a standard, secure scheme without CSP bypass, and serves the same page', async () => {
    scheme.registerSandboxScheme();
    const entry = fake.privilegedSchemes.find((s) => s.scheme === scheme.SANDBOX_SCHEME);
    assert.deepEqual(entry?.privileges, { standard: true, secure: true });
    const endpoint = scheme.serveSandboxScheme(site);
    assert.equal(endpoint.origin, 'mcp-desk-sandbox://sandbox');
    const handler = fake.protocolHandlers.get(scheme.SANDBOX_SCHEME);
    assert.ok(handler, 'protocol.handle was called for the scheme');
    const page = await handler(new Request(endpoint.pageUrl(VIEW)));
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-security-policy'), CSP);
    assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
    assert.match(await page.text(), /data-host-origin="file:\/\/"/);
    const script = await handler(new Request('mcp-desk-sandbox://sandbox/sandbox-proxy.js'));
    assert.equal(await script.text(), 'console.log("proxy")');
    assert.equal(
      (await handler(new Request(`mcp-desk-sandbox://sandbox/view/${'ef'.repeat(16)}`))).status,
      404,
    );
    assert.equal((await handler(new Request(`mcp-desk-sandbox://other/view/${VIEW}`))).status, 404);
  });
});
