/**
 * The browser-mode WebSocket bridge over a real host: its three locks (loopback bind,
 * session token, Host/Origin checks), contract validation of every frame, events, and the
 * static file server's refusal to leave its root.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { startBridge, type RunningBridge } from '../../electron/headless/bridge-server.js';
import { BRIDGE_PATH, type HostFrame } from '../../shared/ipc/bridge-protocol.js';
import type { ServerSummary } from '../../shared/domain/server-state.js';
import {
  CleanupStack,
  createTestHost,
  nodeServer,
  SERVERS,
  tempDir,
  waitFor,
  type TestHost,
} from '../helpers/host-harness.js';

const TOKEN = 'bridge-test-token-0123456789abcdef';

/** A bridge client: invoke with replies matched by id, and every event kept. */
class Client {
  readonly events: { event: string; payload: unknown }[] = [];
  private nextId = 1;
  private readonly waiting = new Map<number, (frame: HostFrame) => void>();

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const frame = JSON.parse((data as Buffer).toString('utf8')) as HostFrame;
      if (frame.type === 'event') this.events.push({ event: frame.event, payload: frame.payload });
      else this.waiting.get(frame.id)?.(frame);
    });
  }

  static open(url: string, origin: string): Promise<Client> {
    const ws = new WebSocket(url, { origin });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new Client(ws)));
      ws.once('error', reject);
    });
  }

  invoke(channel: string, payload: unknown): Promise<Extract<HostFrame, { type: 'result' }>> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, (f) => resolve(f as Extract<HostFrame, { type: 'result' }>));
      this.ws.send(JSON.stringify({ type: 'invoke', id, channel, payload }));
    });
  }

  closed(): Promise<{ code: number; reason: string }> {
    return new Promise((r) => this.ws.once('close', (code, reason) => r({ code, reason: String(reason) })));
  }
}

/** Try an upgrade that must be refused; resolves to the HTTP status. */
function refusedStatus(
  url: string,
  opts: { origin?: string; headers?: Record<string, string> },
): Promise<number> {
  const ws = new WebSocket(url, {
    ...(opts.origin ? { origin: opts.origin } : {}),
    ...(opts.headers ? { headers: opts.headers } : {}),
  });
  return new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('open', () => {
      ws.close();
      reject(new Error('the upgrade was accepted'));
    });
    ws.once('error', (e) => reject(e));
  });
}

/** A raw GET (the path is sent exactly as given, no normalisation). */
function rawGet(
  port: number,
  path: string,
  host = `127.0.0.1:${port}`,
  method = 'GET',
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { Host: host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('WebSocket bridge', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  let t: TestHost;
  let bridge: RunningBridge;
  let url: string;
  let origin: string;
  let client: Client;

  before(async () => {
    const dir = await tempDir(stack);
    const rendererDir = join(dir, 'renderer');
    await mkdir(rendererDir);
    await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>desk</title>');
    await writeFile(join(dir, 'secret.txt'), 'TOP-SECRET-OUTSIDE-ROOT');
    t = await createTestHost(stack, { servers: { every: nodeServer(SERVERS.everything, ['stdio']) } });
    bridge = await startBridge({ router: t.router, events: t.events, rendererDir, token: TOKEN });
    stack.defer(() => bridge.close());
    origin = `http://127.0.0.1:${bridge.port}`;
    url = `ws://127.0.0.1:${bridge.port}${BRIDGE_PATH}?token=${TOKEN}`;
    client = await Client.open(url, origin);
    stack.defer(() => client.ws.terminate());
  });
  after(() => stack.run());

  it('listens on 127.0.0.1 only', async () => {
    assert.match(bridge.url, new RegExp(`^http://127\\.0\\.0\\.1:${bridge.port}/#token=`));
    if (process.platform === 'linux') {
      const hexPort = bridge.port.toString(16).toUpperCase().padStart(4, '0');
      const listening = (file: string) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .slice(1)
          .map((l) => l.trim().split(/\s+/))
          .filter((f) => f[1]?.endsWith(`:${hexPort}`) && f[3] === '0A')
          .map((f) => f[1].split(':')[0]);
      assert.deepEqual(listening('/proc/net/tcp'), ['0100007F'], 'one IPv4 listener, on 127.0.0.1');
      let v6: string[] = [];
      try {
        v6 = listening('/proc/net/tcp6');
      } catch {
        // No IPv6 on this machine.
      }
      assert.deepEqual(v6, [], 'no IPv6 listener');
    }
    // And from the outside: any non-loopback address of this machine is refused.
    const external = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
    if (external) {
      const refused = await new Promise<boolean>((r) => {
        const s = connect({ host: external, port: bridge.port });
        s.once('connect', () => (s.destroy(), r(false)));
        s.once('error', () => r(true));
      });
      assert.equal(refused, true, `connection via ${external} must be refused`);
    }
  });

  it('refuses a wrong or missing token (401)', async () => {
    assert.equal(
      await refusedStatus(`ws://127.0.0.1:${bridge.port}${BRIDGE_PATH}?token=wrong`, { origin }),
      401,
    );
    assert.equal(await refusedStatus(`ws://127.0.0.1:${bridge.port}${BRIDGE_PATH}`, { origin }), 401);
    assert.equal(
      await refusedStatus(`ws://127.0.0.1:${bridge.port}${BRIDGE_PATH}?token=${TOKEN}x`, { origin }),
      401,
    );
  });

  it('refuses a foreign or missing Origin (403)', async () => {
    assert.equal(await refusedStatus(url, { origin: 'http://evil.example' }), 403);
    assert.equal(await refusedStatus(url, { origin: `http://127.0.0.1:${bridge.port + 1}` }), 403);
    assert.equal(await refusedStatus(url, {}), 403);
  });

  it('refuses a foreign Host (421), as a DNS-rebinding page would send', async () => {
    assert.equal(await refusedStatus(url, { origin, headers: { Host: `evil.example:${bridge.port}` } }), 421);
  });

  it('refuses other paths (404)', async () => {
    assert.equal(await refusedStatus(`ws://127.0.0.1:${bridge.port}/other?token=${TOKEN}`, { origin }), 404);
  });

  it('accepts localhost as well as 127.0.0.1', async () => {
    const c = await Client.open(
      `ws://127.0.0.1:${bridge.port}${BRIDGE_PATH}?token=${TOKEN}`,
      `http://localhost:${bridge.port}`,
    );
    const r = await c.invoke('host.info', {});
    assert.equal(r.ok, true);
    c.ws.close();
  });

  it('answers servers.list and host.info', async () => {
    const r = await client.invoke('servers.list', {});
    assert.ok(r.ok, JSON.stringify(r));
    assert.ok(Array.isArray(r.value) && (r.value as ServerSummary[]).some((s) => s.id === 'every'));
    const info = await client.invoke('host.info', {});
    assert.ok(info.ok && (info.value as { configPath: string }).configPath === t.configPath);
  });

  it('rejects an invalid payload with invalid_request naming the field', async () => {
    const r = await client.invoke('servers.add', { name: 'bad', config: { command: '' } });
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.error.code === 'invalid_request', JSON.stringify(r));
    assert.ok(
      !r.ok && /config/.test(r.error.message) && /command/.test(r.error.message),
      r.ok ? '' : r.error.message,
    );
    const extra = await client.invoke('servers.list', { sneaky: true });
    assert.ok(!extra.ok && extra.error.code === 'invalid_request', JSON.stringify(extra));
    const badName = await client.invoke('servers.add', { name: '../etc', config: { command: 'x' } });
    assert.ok(!badName.ok && /name/.test(badName.error.message), JSON.stringify(badName));
    assert.ok(!t.host.list().some((s) => s.id === 'bad' || s.id === '../etc'), 'nothing was added');
  });

  it('rejects an unknown channel with unknown_channel', async () => {
    const r = await client.invoke('servers.format-disk', {});
    assert.ok(!r.ok && r.error.code === 'unknown_channel', JSON.stringify(r));
    const proto = await client.invoke('__proto__', {});
    assert.ok(!proto.ok && proto.error.code === 'unknown_channel', JSON.stringify(proto));
  });

  it('closes a socket that sends a malformed frame (1008), and the host carries on', async () => {
    const c = await Client.open(url, origin);
    for (const bad of [
      'not json',
      JSON.stringify({ type: 'invoke', channel: 'servers.list' }),
      JSON.stringify({ type: 'invoke', id: -1, channel: 'x', payload: {} }),
    ]) {
      const victim = await Client.open(url, origin);
      const closed = victim.closed();
      victim.ws.send(bad);
      assert.equal((await closed).code, 1008, `frame ${bad}`);
    }
    const r = await c.invoke('servers.list', {});
    assert.ok(r.ok, 'an open socket is unaffected');
    const fresh = await Client.open(url, origin);
    assert.ok((await fresh.invoke('servers.list', {})).ok, 'a new socket works');
    c.ws.close();
    fresh.ws.close();
  });

  it('forwards events: servers.changed after add, tool.progress during a call', async () => {
    const seenBefore = client.events.length;
    const added = await client.invoke('servers.add', {
      name: 'viaBridge',
      config: nodeServer(SERVERS.crash),
    });
    assert.ok(added.ok, JSON.stringify(added));
    await waitFor('servers.changed with viaBridge connected', () =>
      client.events
        .slice(seenBefore)
        .some(
          (e) =>
            e.event === 'servers.changed' &&
            (e.payload as ServerSummary[]).some((s) => s.id === 'viaBridge' && s.state.kind === 'connected'),
        )
        ? true
        : undefined,
    );

    await waitFor('every to connect', () =>
      t.host.list().find((s) => s.id === 'every')?.state.kind === 'connected' ? true : undefined,
    );
    const call = await client.invoke('tools.call', {
      serverId: 'every',
      tool: 'trigger-long-running-operation',
      args: { duration: 0.6, steps: 3 },
      callId: 'bridge-call-1',
    });
    assert.ok(call.ok, JSON.stringify(call));
    const progress = client.events.filter(
      (e) => e.event === 'tool.progress' && (e.payload as { callId: string }).callId === 'bridge-call-1',
    );
    assert.ok(progress.length >= 2, `tool.progress events: ${progress.length}`);
  });

  it('cancels a call through tools.cancel', async () => {
    const pending = client.invoke('tools.call', {
      serverId: 'every',
      tool: 'trigger-long-running-operation',
      args: { duration: 20, steps: 40 },
      callId: 'bridge-cancel',
    });
    await waitFor('first progress', () =>
      client.events.some(
        (e) => e.event === 'tool.progress' && (e.payload as { callId: string }).callId === 'bridge-cancel',
      )
        ? true
        : undefined,
    );
    const c = await client.invoke('tools.cancel', { callId: 'bridge-cancel' });
    assert.ok(c.ok && (c.value as { cancelled: boolean }).cancelled === true, JSON.stringify(c));
    const r = await pending;
    assert.ok(!r.ok && r.error.code === 'cancelled', JSON.stringify(r));
  });

  it('serves the renderer with a CSP, and refuses wrong Host and methods', async () => {
    const index = await rawGet(bridge.port, '/');
    assert.equal(index.status, 200);
    assert.match(index.body, /<title>desk<\/title>/);
    assert.match(String(index.headers['content-security-policy']), /default-src 'self'/);
    assert.equal((await rawGet(bridge.port, '/', `evil.example:${bridge.port}`)).status, 421);
    assert.equal((await rawGet(bridge.port, '/', 'evil.example', 'POST')).status, 421);
    assert.equal((await rawGet(bridge.port, '/', `127.0.0.1:${bridge.port}`, 'POST')).status, 405);
  });

  it('never serves a file outside its root', async () => {
    for (const path of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e%2fsecret.txt',
      '/..%5csecret.txt',
      '/%252e%252e/secret.txt',
      '/../package.json',
      '/%00',
    ]) {
      const r = await rawGet(bridge.port, path);
      assert.ok([400, 403, 404].includes(r.status), `${path} -> ${r.status}`);
      assert.doesNotMatch(r.body, /TOP-SECRET/);
    }
  });
});
