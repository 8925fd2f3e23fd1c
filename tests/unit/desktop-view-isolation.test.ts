/**
 * The desktop app's view isolation (issue 28), against the recording fake of `electron` (no
 * Electron binary can exist here; tests/e2e/electron-app.test.ts runs the real one where it can).
 * Each view has its own origin on the sandbox scheme, so the request filter and the permission
 * checks are keyed by that origin: a view reaches only what it declared and has only what its
 * server was granted, never another view's. The focus policy's Chromium feature is switched on
 * with any other features kept; every webContents gets the WebRTC policy; the session's proxy
 * refuses WebRTC's relays and lets each open view's declared hosts through, set before the view's
 * handle goes out; a closed view's storage is cleared. What these rules do in a real Chromium is
 * tests/e2e/mcp-apps-webrtc.test.ts's to show.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { register } from 'node:module';
import { connect } from 'node:net';
import type { AppCspDomains, AppPermission } from '../../shared/domain/mcp-apps.js';
import type { OpenView } from '../../electron/host/apps/app-views.js';

register('../helpers/fake-electron-hooks.mjs', import.meta.url);
const fake = await import('../helpers/fake-electron.js');
const { blockRemoteContent, mayGrantPermission, matchesDeclared, originOf, permissionRequestFacts } =
  await import('../../electron/main/request-filter.js');
const { blockWebRtcIn, enableFocusPolicy, FOCUS_POLICY_FEATURE, viewLookup, ViewIsolation } =
  await import('../../electron/main/view-isolation.js');
const { viewProxyConfig, WEBRTC_IP_POLICY } = await import('../../electron/main/webrtc-block.js');

const A = 'a1'.repeat(16);
const B = 'b2'.repeat(16);
const NONE: AppCspDomains = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };

function view(viewId: string, csp: Partial<AppCspDomains>, granted: AppPermission[] = []): OpenView {
  return {
    viewId,
    serverId: `server-${viewId.slice(0, 2)}`,
    toolName: 'show',
    resourceUri: 'ui://x/view.html',
    csp: { ...NONE, ...csp },
    cspApplied: "default-src 'none'",
    granted,
    openedAt: 0,
  };
}

const open = new Map<string, OpenView>([
  [
    A,
    view(A, { connectDomains: ['https://api.vault.example'], resourceDomains: ['https://*.tiles.example'] }, [
      'camera',
    ]),
  ],
  [B, view(B, { connectDomains: ['wss://feed.other.example:8443'] }, ['geolocation'])],
]);
const views = viewLookup((id) => open.get(id));
const originA = `mcp-desk-sandbox://${A}`;
const originB = `mcp-desk-sandbox://${B}`;

describe('the request filter, per view origin', () => {
  let filter:
    | ((d: { url: string; frame?: { origin?: string } | null }, cb: (r: { cancel: boolean }) => void) => void)
    | undefined;
  blockRemoteContent({ webRequest: { onBeforeRequest: (f: typeof filter) => (filter = f) } } as never, views);
  const passes = (url: string, origin?: string) => {
    let cancel: boolean | undefined;
    filter!({ url, frame: origin ? { origin } : null }, (r) => (cancel = r.cancel));
    return cancel === false;
  };

  it("lets a view reach the origins it declared, and only those, never another view's", () => {
    assert.equal(passes('https://api.vault.example/balance', originA), true);
    assert.equal(passes('wss://api.vault.example/live', originA), true, 'an https source covers wss');
    assert.equal(passes('https://a.tiles.example/1.png', originA), true, 'a wildcard covers subdomains');
    assert.equal(passes('https://tiles.example/1.png', originA), false, 'but not the bare domain');
    assert.equal(passes('https://api.vault.example:8443/', originA), false, 'nor another port');
    assert.equal(passes('http://api.vault.example/', originA), false, 'nor plain http');
    assert.equal(passes('wss://feed.other.example:8443/', originA), false, "B's declared origin is not A's");
    assert.equal(passes('wss://feed.other.example:8443/', originB), true);
    assert.equal(passes('https://api.vault.example/', originB), false, "A's declared origin is not B's");
  });

  it('refuses frames that are no open view, and our own pages stay local', () => {
    assert.equal(passes('https://api.vault.example/', `mcp-desk-sandbox://${'c3'.repeat(16)}`), false);
    assert.equal(passes('https://api.vault.example/', 'mcp-desk-sandbox://sandbox'), false);
    assert.equal(passes('https://api.vault.example/', 'file://'), false);
    assert.equal(passes('https://api.vault.example/', undefined), false);
    assert.equal(passes(`mcp-desk-sandbox://${A}/view/${A}`, 'file://'), true);
    assert.equal(passes('file:///app/out/renderer/index.js', 'file://'), true);
  });

  it('matches declared origins the way a CSP source does', () => {
    assert.equal(matchesDeclared('https://x.example/', 'https://x.example'), true);
    assert.equal(matchesDeclared('https://x.example:443/', 'https://x.example'), true);
    assert.equal(matchesDeclared('https://evil-x.example/', 'https://*.x.example'), false);
    assert.equal(matchesDeclared('https://x.example.evil/', 'https://x.example'), false);
    assert.equal(matchesDeclared('not a url', 'https://x.example'), false);
    assert.equal(matchesDeclared('https://x.example/', "'unsafe-inline'"), false);
  });
});

describe('device permissions, per view origin', () => {
  it("grants a view only what its server was granted, never another view's grant", () => {
    assert.equal(mayGrantPermission('media', originA, views, ['video']), true, 'camera granted to A');
    assert.equal(mayGrantPermission('media', originA, views, ['audio']), false, 'no microphone for A');
    assert.equal(mayGrantPermission('media', originA, views, ['video', 'audio']), false);
    assert.equal(mayGrantPermission('geolocation', originA, views), false, "B's location grant is not A's");
    assert.equal(mayGrantPermission('geolocation', originB, views), true);
    assert.equal(mayGrantPermission('media', originB, views, ['video']), false, "A's camera is not B's");
    assert.equal(mayGrantPermission('clipboard-sanitized-write', originA, views), false);
    for (const p of ['notifications', 'openExternal', 'midi', 'fullscreen'])
      assert.equal(mayGrantPermission(p, originA, views), false, p);
    assert.equal(mayGrantPermission('media', originOf('file:///app/index.html'), views, ['video']), false);
    assert.equal(mayGrantPermission('media', originOf('not a url'), views, ['video']), false);
  });

  it('reads the origin a request names: the security origin where there is one', () => {
    const facts = permissionRequestFacts({
      requestingUrl: 'about:blank',
      securityOrigin: `${originA}/`,
      mediaTypes: ['video'],
    });
    assert.equal(originOf(facts.origin), originA);
    assert.deepEqual(facts.media, ['video']);
    assert.equal(
      permissionRequestFacts({ requestingUrl: `${originB}/view/${B}` }).origin,
      `${originB}/view/${B}`,
    );
  });
});

describe('focus and WebRTC for every frame', () => {
  it('switches the focus policy feature on, keeping the features already asked for', () => {
    const fresh = new fake.FakeCommandLine();
    enableFocusPolicy(fresh);
    assert.equal(fresh.getSwitchValue('enable-features'), FOCUS_POLICY_FEATURE);
    assert.equal(fresh.getSwitchValue('enable-blink-features'), FOCUS_POLICY_FEATURE);
    const given = new fake.FakeCommandLine({
      'enable-features': 'WebGPU, Vulkan',
      'enable-blink-features': 'X',
    });
    enableFocusPolicy(given);
    assert.equal(given.getSwitchValue('enable-features'), `WebGPU,Vulkan,${FOCUS_POLICY_FEATURE}`);
    assert.equal(given.getSwitchValue('enable-blink-features'), `X,${FOCUS_POLICY_FEATURE}`);
    const already = new fake.FakeCommandLine({
      'enable-features': FOCUS_POLICY_FEATURE,
      'enable-blink-features': FOCUS_POLICY_FEATURE,
    });
    enableFocusPolicy(already);
    assert.deepEqual(already.appended, [], 'nothing appended twice');
  });

  it('gives every webContents the WebRTC policy that sends nothing outside the proxy', () => {
    const contents = new fake.FakeWebContents();
    blockWebRtcIn(contents);
    assert.equal(contents.webRtcPolicy, 'disable_non_proxied_udp');
    assert.equal(WEBRTC_IP_POLICY, 'disable_non_proxied_udp');
  });
});

describe("the session's network rules and storage, per open view", () => {
  it('sends https through a proxy that refuses everything, loopback included, but the declared hosts', () => {
    const config = viewProxyConfig(4321, [
      'https://api.vault.example',
      'https://*.tiles.example',
      'wss://feed.other.example:8443',
      'http://127.0.0.1:7000',
      "'unsafe-eval'",
    ]);
    assert.equal(config.mode, 'fixed_servers');
    assert.equal(config.proxyRules, 'https=127.0.0.1:4321');
    assert.equal(
      config.proxyBypassRules,
      '<-loopback>,*.tiles.example,127.0.0.1:7000,api.vault.example,feed.other.example:8443',
    );
  });

  it('sets the rules before any page, adds a view’s hosts before its handle goes out, and clears a closed view', async () => {
    const session = new fake.FakeSession();
    const isolation = await ViewIsolation.start(session);
    try {
      assert.equal(session.proxies.length, 1, 'rules in place at start');
      assert.equal(session.proxies[0]?.proxyRules, `https=127.0.0.1:${isolation.proxyPort}`);
      assert.equal(session.proxies[0]?.proxyBypassRules, '<-loopback>');
      const hooks = isolation.hooks();
      assert.equal(hooks.webRtcBlocked, true);

      let release!: () => void;
      session.holdProxy = new Promise<void>((r) => (release = r));
      let ready = false;
      const opening = hooks.opened!(open.get(A)!).then(() => (ready = true));
      await new Promise((r) => setTimeout(r, 20));
      assert.equal(ready, false, 'the view waits until the session has its rules');
      release();
      session.holdProxy = null;
      await opening;
      assert.match(session.proxies.at(-1)?.proxyBypassRules ?? '', /api\.vault\.example/);

      hooks.closed!(A);
      await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(session.cleared, [{ origin: originA }], "the closed view's storage is cleared");
      assert.equal(session.proxies.at(-1)?.proxyBypassRules, '<-loopback>', 'and its hosts no longer pass');
      await isolation.forget([B]);
      assert.deepEqual(session.cleared.at(-1), { origin: originB }, 'at quit, views still open are cleared');
    } finally {
      await isolation.dispose();
    }
  });

  it('runs a proxy that refuses every connection', async () => {
    const isolation = await ViewIsolation.start(new fake.FakeSession());
    try {
      const closed = await new Promise<boolean>((resolve) => {
        const socket = connect({ host: '127.0.0.1', port: isolation.proxyPort });
        socket.on('error', () => resolve(true));
        socket.on('close', () => resolve(true));
        socket.on('connect', () => socket.write('CONNECT relay.example:443 HTTP/1.1\r\n\r\n'));
        socket.on('data', () => resolve(false));
      });
      assert.equal(closed, true, 'closed without an answer');
    } finally {
      await isolation.dispose();
    }
  });
});
