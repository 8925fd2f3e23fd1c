/**
 * server-everything over the network: Streamable HTTP, legacy HTTP+SSE (typed and found by
 * fallback), and custom headers proven to arrive through a recording proxy.
 * One server process per transport serves the whole file.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CleanupStack,
  connectedInfo,
  createTestHost,
  failedError,
  freePort,
  startEverythingHttp,
  startHeaderRecorder,
  textOf,
  waitForState,
  type SpawnedServer,
  type TestHost,
} from '../helpers/host-harness.js';

describe('server-everything over HTTP', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  let streamable: SpawnedServer;
  let sse: SpawnedServer;
  let t: TestHost;

  before(async () => {
    [streamable, sse] = await Promise.all([
      startEverythingHttp(stack, 'streamableHttp'),
      startEverythingHttp(stack, 'sse'),
    ]);
    t = await createTestHost(stack, { servers: {} });
  });
  after(() => stack.run());

  it('connects over Streamable HTTP, lists and calls', async () => {
    await t.host.add('http', { url: `${streamable.origin}/mcp` });
    const s = await waitForState(t.host, 'http', 'connected');
    assert.equal(s.transport, 'http');
    assert.equal(connectedInfo(s).protocolEra, 'legacy');
    const tools = t.host
      .catalog()
      .tools.filter((x) => x.serverId === 'http')
      .map((x) => x.tool.name);
    assert.ok(tools.includes('echo') && tools.includes('get-sum'), tools.join(','));
    assert.equal(textOf(await t.host.callTool('http', 'echo', { message: 'over http' })), 'Echo: over http');
  });

  it('reports progress over Streamable HTTP', async () => {
    const seen: number[] = [];
    const result = await t.host.callTool(
      'http',
      'trigger-long-running-operation',
      { duration: 0.6, steps: 3 },
      { onProgress: (p) => seen.push(p.progress) },
    );
    assert.match(textOf(result), /completed/i);
    assert.ok(seen.length >= 2, `progress: ${seen.join(',')}`);
  });

  it('cancels a call over Streamable HTTP', async () => {
    let progressed!: () => void;
    const first = new Promise<void>((r) => (progressed = r));
    const call = t.host.callTool(
      'http',
      'trigger-long-running-operation',
      { duration: 20, steps: 40 },
      { callId: 'http-cancel', onProgress: () => progressed() },
    );
    const settled = call.then(
      () => 'resolved',
      (e: unknown) => e,
    );
    await first;
    assert.equal(t.host.cancel('http-cancel'), true);
    assert.notEqual(await settled, 'resolved');
    assert.ok(
      t.host.trace('http').some((e) => e.direction === 'out' && e.method === 'notifications/cancelled'),
    );
    assert.equal(textOf(await t.host.callTool('http', 'echo', { message: 'again' })), 'Echo: again');
  });

  it('connects over legacy SSE when the config says type "sse"', async () => {
    await t.host.add('sse-typed', { url: `${sse.origin}/sse`, type: 'sse' });
    const s = await waitForState(t.host, 'sse-typed', 'connected');
    assert.equal(s.transport, 'sse');
    assert.equal(
      textOf(await t.host.callTool('sse-typed', 'echo', { message: 'over sse' })),
      'Echo: over sse',
    );
  });

  it('falls back to SSE by itself for an untyped URL of an SSE-only server', async () => {
    await t.host.add('sse-auto', { url: `${sse.origin}/sse` });
    const s = await waitForState(t.host, 'sse-auto', 'connected');
    assert.equal(s.transport, 'sse');
    assert.equal(
      textOf(await t.host.callTool('sse-auto', 'echo', { message: 'fallback' })),
      'Echo: fallback',
    );
  });

  it('sends custom headers on every Streamable HTTP request', async () => {
    const recorder = await startHeaderRecorder(stack, streamable.port);
    await t.host.add('hdr-http', {
      url: `${recorder.origin}/mcp`,
      headers: { 'X-Desk-Test': 'header-value-1' },
    });
    await waitForState(t.host, 'hdr-http', 'connected');
    assert.equal(textOf(await t.host.callTool('hdr-http', 'echo', { message: 'h' })), 'Echo: h');
    assert.ok(recorder.requests.length >= 2, `requests: ${recorder.requests.length}`);
    for (const r of recorder.requests)
      assert.equal(r.headers['x-desk-test'], 'header-value-1', `${r.method} ${r.url}`);
  });

  it('sends custom headers on the SSE stream and on its POSTs', async () => {
    const recorder = await startHeaderRecorder(stack, sse.port);
    await t.host.add('hdr-sse', {
      url: `${recorder.origin}/sse`,
      type: 'sse',
      headers: { 'X-Desk-Test': 'header-value-2' },
    });
    await waitForState(t.host, 'hdr-sse', 'connected');
    assert.equal(textOf(await t.host.callTool('hdr-sse', 'echo', { message: 's' })), 'Echo: s');
    const get = recorder.requests.find((r) => r.method === 'GET' && r.url.startsWith('/sse'));
    const post = recorder.requests.find((r) => r.method === 'POST' && r.url.startsWith('/message'));
    assert.ok(get && post, JSON.stringify(recorder.requests.map((r) => `${r.method} ${r.url}`)));
    assert.equal(get.headers['x-desk-test'], 'header-value-2');
    assert.equal(post.headers['x-desk-test'], 'header-value-2');
  });

  it('fails clearly when nothing listens at the URL', async () => {
    const port = await freePort();
    await t.host.add('nobody-auto', { url: `http://127.0.0.1:${port}/mcp` });
    await t.host.add('nobody-http', { url: `http://127.0.0.1:${port}/mcp`, type: 'http' });
    for (const id of ['nobody-auto', 'nobody-http']) {
      const err = failedError(await waitForState(t.host, id, 'failed'));
      assert.match(err.message, /ECONNREFUSED|connection refused/i, `${id}: ${err.message}`);
    }
  });
});
