// The desktop app's mcp-desk:// handler (issue 14 item 6): registered with the OS, links from
// open-url, argv and a second instance reach the host's inbox (queued until the host is up),
// and a window takes them from there; anything that is not an install link is dropped.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import { DeepLinkHook, linkInArgv, type ProtocolApp } from '../../electron/main/deep-links.js';
import { HostEvents } from '../../electron/host/host-events.js';
import { DeepLinkInbox } from '../../electron/host/registry/deep-link-inbox.js';

class FakeApp extends EventEmitter implements ProtocolApp {
  registered: unknown[][] = [];
  setAsDefaultProtocolClient(...args: [string, string?, string[]?]): boolean {
    this.registered.push(args);
    return true;
  }
}

const LINK = 'mcp-desk://install?registry=io.github.upstash/context7';

describe('the protocol hook', () => {
  it('registers the scheme, queues links until the host attaches, then delivers them', () => {
    const app = new FakeApp();
    const hook = new DeepLinkHook();
    hook.register(app, ['/opt/MCP Desk/mcp-desk', '--no-sandbox', LINK], false);
    assert.deepEqual(app.registered, [['mcp-desk']]);
    let prevented = false;
    app.emit('open-url', { preventDefault: () => (prevented = true) }, `${LINK}&version=1.0.0`);
    assert.ok(prevented);
    const got: string[] = [];
    hook.attach((url) => got.push(url));
    assert.deepEqual(got, [LINK, `${LINK}&version=1.0.0`]);
    hook.receive(linkInArgv(['x', '--flag', 'MCP-DESK://install?name=a']) ?? '');
    assert.deepEqual(got.at(-1), 'MCP-DESK://install?name=a');
  });

  it('run from source, the OS is told to start Electron with our script', () => {
    const app = new FakeApp();
    new DeepLinkHook().register(app, ['/usr/bin/electron', 'out/main/index.cjs'], true);
    const [call] = app.registered;
    assert.equal(call?.[0], 'mcp-desk');
    assert.match(String((call?.[2] as string[])[0]), /out\/main\/index\.cjs$/);
  });
});

describe('the inbox', () => {
  it('announces install links, keeps them for a window, and drops anything else', () => {
    const events = new HostEvents();
    const heard: unknown[] = [];
    events.on('deepLink.opened', (p) => heard.push(p));
    const inbox = new DeepLinkInbox(events);
    inbox.offer('https://evil.example/');
    inbox.offer(`mcp-desk://install?${'x'.repeat(20_000)}`);
    inbox.offer(LINK);
    assert.deepEqual(heard, [{ url: LINK }]);
    assert.deepEqual(inbox.take(), [LINK]);
    assert.deepEqual(inbox.take(), []);
  });
});
