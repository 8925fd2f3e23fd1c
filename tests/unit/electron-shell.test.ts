/**
 * The Electron shell's security settings: webPreferences, the renderer's CSP, navigation
 * lock-down and the IPC sender gate. Electron cannot run on this machine, so `electron` is
 * replaced by tests/helpers/fake-electron.ts through a module hook registered before the
 * code under test is imported (hence the dynamic imports below).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { register } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IpcMainInvokeEvent, WebContents } from 'electron';
import type { HostRouter } from '../../electron/host/router.js';

register('../helpers/fake-electron-hooks.mjs', import.meta.url);

const fake = await import('../helpers/fake-electron.js');
const { secureWebPreferences, rendererUrl, lockNavigation } =
  await import('../../electron/main/window-factory.js');
const { isTrustedSender, installIpcGate } = await import('../../electron/main/ipc-gate.js');
const { INVOKE_CHANNEL } = await import('../../shared/ipc/electron-channels.js');

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const paths = {
  rendererIndex: path.join(root, 'out/renderer/index.html'),
  preload: path.join(root, 'out/preload/index.cjs'),
};
const allowedUrl = rendererUrl(paths);

describe('secureWebPreferences', () => {
  it('sandboxes and isolates the renderer, with no Node and no webview', () => {
    const prefs = secureWebPreferences('/x/preload.cjs');
    assert.equal(prefs.preload, '/x/preload.cjs');
    assert.equal(prefs.sandbox, true);
    assert.equal(prefs.contextIsolation, true);
    assert.equal(prefs.nodeIntegration, false);
    assert.equal(prefs.nodeIntegrationInWorker, false);
    assert.equal(prefs.nodeIntegrationInSubFrames, false);
    assert.equal(prefs.webSecurity, true);
    assert.equal(prefs.allowRunningInsecureContent, false);
    assert.equal(prefs.webviewTag, false);
    assert.equal(prefs.experimentalFeatures, false);
    assert.equal(prefs.navigateOnDragDrop, false);
  });

  it('renders from a file: URL of the built index.html', () => {
    assert.ok(allowedUrl.startsWith('file://'));
    assert.ok(allowedUrl.endsWith('/out/renderer/index.html'));
  });
});

/** Pulls the CSP out of an HTML file's meta tag, as directive -> sources. */
function readCsp(file: string): Map<string, string[]> {
  const html = readFileSync(file, 'utf8');
  const meta = /<meta\s[^>]*http-equiv="Content-Security-Policy"[^>]*>/i.exec(html);
  assert.ok(meta, `${file} has a CSP meta tag`);
  const content = /content="([^"]*)"/i.exec(meta[0]);
  assert.ok(content, `${file}: CSP meta has content`);
  const directives = new Map<string, string[]>();
  for (const part of content[1].split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name.toLowerCase(), sources);
  }
  return directives;
}

function assertStrictCsp(file: string): void {
  const csp = readCsp(file);
  assert.deepEqual(csp.get('default-src'), ["'self'"]);
  assert.deepEqual(csp.get('script-src'), ["'self'"], 'no unsafe-inline, unsafe-eval or remote scripts');
  assert.deepEqual(csp.get('object-src'), ["'none'"]);
  // Frames only from MCP App views' pages, each on its own origin: the desktop app's scheme (one
  // host per view), browser mode's `<viewId>.localhost` hosts (whose header narrows the port).
  assert.deepEqual(csp.get('frame-src'), ['http://*.localhost:*/view/', 'mcp-desk-sandbox://*:*/view/']);
  const connect = csp.get('connect-src') ?? [];
  assert.ok(connect.includes("'self'"));
  for (const source of connect) {
    const loopbackWs = /^ws:\/\/(127\.0\.0\.1|localhost)(:(\d+|\*))?$/.test(source);
    assert.ok(source === "'self'" || loopbackWs, `connect-src ${source} is neither self nor loopback ws`);
  }
  for (const [name, sources] of csp) {
    assert.ok(!sources.includes("'unsafe-eval'"), `${name} allows unsafe-eval`);
  }
}

describe('renderer CSP', () => {
  it('renderer/index.html is strict', () => assertStrictCsp(path.join(root, 'renderer/index.html')));

  const built = path.join(root, 'out/renderer/index.html');
  it(
    'the built out/renderer/index.html is strict',
    { skip: existsSync(built) ? false : 'out/renderer/index.html not built' },
    () => assertStrictCsp(built),
  );
});

/** Just enough of WebContents for lockNavigation: events plus the window-open handler. */
class FakeContents extends EventEmitter {
  openHandler: ((details: { url: string }) => { action: string }) | undefined;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.openHandler = handler;
  }
  /** Emits a cancellable event the way Electron does; true if a listener prevented it. */
  fire(name: string, url: string): boolean {
    let prevented = false;
    this.emit(name, { preventDefault: () => (prevented = true) }, url);
    return prevented;
  }
}

function lockedContents(): FakeContents {
  const contents = new FakeContents();
  lockNavigation(contents as unknown as WebContents, allowedUrl);
  return contents;
}

describe('lockNavigation', () => {
  it('prevents navigation and redirects anywhere but the renderer', () => {
    const contents = lockedContents();
    assert.equal(contents.fire('will-navigate', 'https://evil.example/'), true);
    assert.equal(contents.fire('will-navigate', 'file:///etc/passwd'), true);
    assert.equal(contents.fire('will-redirect', 'https://evil.example/'), true);
    assert.equal(contents.fire('will-navigate', allowedUrl), false);
    assert.equal(contents.fire('will-redirect', allowedUrl), false);
  });

  it('refuses to attach webviews', () => {
    assert.equal(lockedContents().fire('will-attach-webview', 'https://example.com/'), true);
  });

  it('denies every new window and opens only checked http(s) links externally', () => {
    const contents = lockedContents();
    const open = contents.openHandler;
    assert.ok(open, 'a window-open handler is installed');
    fake.openedExternally.length = 0;
    const refused = [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'https://user:pass@example.com/',
      'https://user@example.com/',
      'data:text/html,hi',
      'not a url',
      allowedUrl,
    ];
    for (const url of refused) assert.deepEqual(open({ url }), { action: 'deny' }, url);
    assert.deepEqual(fake.openedExternally, [], 'nothing unsafe reached the system browser');
    assert.deepEqual(open({ url: 'https://example.com/docs' }), { action: 'deny' });
    assert.deepEqual(open({ url: 'http://example.org/' }), { action: 'deny' });
    assert.deepEqual(fake.openedExternally, ['https://example.com/docs', 'http://example.org/']);
  });
});

describe('isTrustedSender', () => {
  const top = { url: allowedUrl, parent: null };
  it('accepts our own top frame (query and hash ignored)', () => {
    assert.equal(isTrustedSender(top, allowedUrl), true);
    assert.equal(isTrustedSender({ url: `${allowedUrl}#/chat`, parent: null }, allowedUrl), true);
  });
  it('refuses a subframe, another URL, or no frame', () => {
    const subframe = { url: allowedUrl, parent: top } as unknown as Parameters<typeof isTrustedSender>[0];
    assert.equal(isTrustedSender(subframe, allowedUrl), false);
    assert.equal(isTrustedSender({ url: 'https://evil.example/', parent: null }, allowedUrl), false);
    assert.equal(isTrustedSender({ url: 'file:///tmp/index.html', parent: null }, allowedUrl), false);
    assert.equal(isTrustedSender(null, allowedUrl), false);
    assert.equal(isTrustedSender(undefined, allowedUrl), false);
  });
});

describe('installIpcGate', () => {
  it('answers forbidden to a foreign frame without reaching the router, and routes our own', async () => {
    const routed: unknown[][] = [];
    const router = {
      handle: async (channel: unknown, payload: unknown) => {
        routed.push([channel, payload]);
        return { ok: true, value: 'routed' };
      },
    } as unknown as HostRouter;
    const uninstall = installIpcGate(router, () => allowedUrl);
    try {
      const handler = fake.ipcHandlers.get(INVOKE_CHANNEL);
      assert.ok(handler, 'the invoke channel has a handler');
      const eventFrom = (senderFrame: unknown) => ({ senderFrame }) as unknown as IpcMainInvokeEvent;

      for (const frame of [
        { url: 'https://evil.example/', parent: null },
        { url: allowedUrl, parent: { url: allowedUrl } },
        null,
      ]) {
        const result = await handler(eventFrom(frame), 'servers.list', {});
        assert.deepEqual(result, {
          ok: false,
          error: { code: 'forbidden', message: 'IPC from an untrusted frame was refused' },
        });
      }
      assert.deepEqual(routed, [], 'the router never saw a foreign request');

      assert.deepEqual(
        await handler(eventFrom({ url: allowedUrl, parent: null }), 'servers.list', { a: 1 }),
        { ok: true, value: 'routed' },
      );
      assert.deepEqual(routed, [['servers.list', { a: 1 }]]);
    } finally {
      uninstall();
    }
    assert.equal(fake.ipcHandlers.has(INVOKE_CHANNEL), false, 'uninstall removes the handler');
  });
});
