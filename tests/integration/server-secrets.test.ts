/**
 * `${secret:NAME}` end to end through the router, with real servers: server-everything over
 * stdio (the secret in its env) and over Streamable HTTP behind a header recorder (the secret
 * in an `X-Api-Key` header). Missing, the servers fail naming the secret; set through
 * `serverSecrets.set`, they restart and really receive it; deleted, they fail again. The
 * value must never come back: not in a router response, an event, a log, a trace, the audit
 * directory or any file of the data folder.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ServerSecretStatus } from '../../shared/domain/server-secrets.js';
import { MemorySecretStore } from '../../electron/host/stores/secret-store.js';
import type { RouteResult } from '../../electron/host/router.js';
import {
  CleanupStack,
  createTestHost,
  failedError,
  nodeServer,
  SERVERS,
  startEverythingHttp,
  startHeaderRecorder,
  textOf,
  waitFor,
  waitForState,
  type HeaderRecorder,
  type TestHost,
} from '../helpers/host-harness.js';

const VALUE = 'demo-secret-value-7f3a9c21';

function assertClean(what: string, value: unknown): void {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const at = text.indexOf(VALUE);
  assert.ok(at < 0, `${what} leaks the secret: …${text.slice(Math.max(0, at - 200), at + 50)}`);
}

/** Every file under `dir`, recursively, as text. */
async function filesUnder(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) {
      const path = join(e.parentPath, e.name);
      // A store's temporary file (`*.tmp`) can be renamed away between listing and reading.
      const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        throw error;
      });
      if (text !== null) out.set(path, text);
    }
  }
  return out;
}

describe('server secrets through the router', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  let t: TestHost;
  let recorder: HeaderRecorder;
  const responses: RouteResult[] = [];
  const events: unknown[] = [];

  /** Route a request as the renderer would, keeping every response for the leak check. */
  async function call(channel: string, payload: unknown): Promise<RouteResult> {
    const r = await t.router.handle(channel, payload);
    responses.push(r);
    return r;
  }
  async function list(): Promise<ServerSecretStatus[]> {
    const r = await call('serverSecrets.list', {});
    assert.ok(r.ok, JSON.stringify(r));
    return r.value as ServerSecretStatus[];
  }

  before(async () => {
    const http = await startEverythingHttp(stack, 'streamableHttp');
    recorder = await startHeaderRecorder(stack, http.port);
    t = await createTestHost(stack, {
      secretStore: new MemorySecretStore({ initial: { geminiApiKey: 'an-app-key-not-a-server-secret' } }),
      dataDir: true,
      servers: {
        local: nodeServer(SERVERS.everything, ['stdio'], { env: { DEMO_TOKEN: '${secret:demo-key}' } }),
        remote: { url: `${recorder.origin}/mcp`, headers: { 'X-Api-Key': '${secret:demo-key}' } },
        other: nodeServer(SERVERS.everything, ['stdio'], {
          env: { OTHER: '${secret:other-key}' },
          disabled: true,
        }),
      },
      init: false,
    });
    t.events.onAny((event, payload) => events.push({ event, payload }));
    await t.host.init();
  });
  after(() => stack.run());

  it('lists every referenced secret as not set, and the servers fail naming it', async () => {
    assert.deepEqual(await list(), [
      { name: 'demo-key', set: false, usedBy: ['local', 'remote'] },
      { name: 'other-key', set: false, usedBy: ['other'] },
    ]);
    for (const id of ['local', 'remote']) {
      const error = failedError(await waitForState(t.host, id, 'failed'));
      assert.equal(error.code, 'secret_missing');
      assert.match(error.message, /\$\{secret:demo-key\}/);
      assert.match(error.message, /has no stored value/);
    }
    // The app's own API key is not a server secret: it neither lists nor resolves.
    assert.ok(!(await list()).some((s) => s.name === 'geminiApiKey'));
  });

  it('refuses bad names and values, without quoting the value', async () => {
    for (const name of ['', 'has space', '9starts-with-digit', 'x'.repeat(91), '${secret:x}']) {
      const r = await call('serverSecrets.set', { name, value: VALUE });
      assert.equal(r.ok, false, `name ${JSON.stringify(name)} must be refused`);
    }
    const long = await call('serverSecrets.set', {
      name: 'demo-key',
      value: `${VALUE}${'x'.repeat(10_000)}`,
    });
    assert.ok(!long.ok && long.error.code === 'invalid_request');
    const empty = await call('serverSecrets.set', { name: 'demo-key', value: '' });
    assert.equal(empty.ok, false);
    assert.ok(!(await list()).find((s) => s.name === 'demo-key')?.set, 'nothing was stored');
  });

  it('set: the servers restart and receive the value; the list says set and never shows it', async () => {
    const before = recorder.requests.length;
    const r = await call('serverSecrets.set', { name: 'demo-key', value: VALUE });
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(
      (r.value as ServerSecretStatus[]).find((s) => s.name === 'demo-key'),
      { name: 'demo-key', set: true, usedBy: ['local', 'remote'] },
    );
    await Promise.all([
      waitForState(t.host, 'local', 'connected'),
      waitForState(t.host, 'remote', 'connected'),
    ]);
    const sent = recorder.requests.slice(before);
    assert.ok(
      sent.length > 0 && sent.every((q) => q.headers['x-api-key'] === VALUE),
      'every request carries the header',
    );
    const env = JSON.parse(textOf(await t.host.callTool('local', 'get-env', {}))) as Record<string, string>;
    assert.equal(env.DEMO_TOKEN, VALUE);
    assert.equal(
      t.host.list().find((s) => s.id === 'other')?.state.kind,
      'disabled',
      'a disabled user is not started',
    );
    assert.deepEqual(await list(), [
      { name: 'demo-key', set: true, usedBy: ['local', 'remote'] },
      { name: 'other-key', set: false, usedBy: ['other'] },
    ]);
  });

  it('the value is nowhere the renderer or the disk can see', async () => {
    // The get-env reply is in the trace: the live batch must have gone out (redacted).
    await waitFor('the get-env reply in a server.output event', () =>
      events.some(
        (e) => JSON.stringify(e).includes('server.output') && JSON.stringify(e).includes('DEMO_TOKEN'),
      )
        ? true
        : undefined,
    );
    for (const id of ['local', 'remote', 'other']) {
      responses.push(
        await t.router.handle('servers.trace', { id }),
        await t.router.handle('servers.log', { id }),
      );
    }
    responses.push(
      await t.router.handle('servers.list', {}),
      await t.router.handle('audit.query', { limit: 1000 }),
    );
    assertClean('router responses', responses);
    assertClean('bridge events', events);
    await t.audit.flush();
    const audit = (await t.router.handle('audit.query', { limit: 1000 })) as {
      ok: true;
      value: { action: string; details?: Record<string, unknown> }[];
    };
    assert.ok(
      audit.value.some((a) => a.action === 'secret-set' && a.details?.name === 'demo-key'),
      'setting is audited (name only)',
    );
    const files = await filesUnder(t.dir);
    assert.ok(
      [...files.keys()].some((f) => f.includes(`${join('data', 'audit')}`)),
      'the audit directory is on disk',
    );
    for (const [path, text] of files) assertClean(path, text);
  });

  it('delete: the servers restart and fail again, naming the secret', async () => {
    const r = await call('serverSecrets.delete', { name: 'demo-key' });
    assert.ok(r.ok, JSON.stringify(r));
    for (const id of ['local', 'remote']) {
      const error = failedError(await waitForState(t.host, id, 'failed'));
      assert.match(error.message, /\$\{secret:demo-key\}/);
    }
    assert.equal((await list()).find((s) => s.name === 'demo-key')?.set, false);
    assertClean('router responses', responses);
  });
});
