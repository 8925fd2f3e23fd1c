/**
 * Remote servers that misbehave on purpose (tests/fixtures/hostile-http-server.mjs), each
 * beside a healthy one in the same host: every hostile endpoint fails its own connect with a
 * sentence saying what it did, within its configured timeout, closing every socket it opened,
 * while the healthy server keeps answering. Then the CLI: `--timeout` bounds a never-answering
 * stdio server and a silent event stream, instead of the SDK's 60 s default per step.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli-runner.js';
import {
  CleanupStack,
  createTestHost,
  failedError,
  nodeServer,
  SERVERS,
  spawnTracked,
  startModernHttp,
  tempDir,
  waitFor,
  waitForState,
  type SpawnedServer,
  type TestHost,
} from '../helpers/host-harness.js';

const HOSTILE = join(SERVERS.modern, '../hostile-http-server.mjs');
/** Budget of each hostile server: short, so the file stays quick; the message must name it. */
const TIMEOUT_MS = 3000;

interface FixtureStats {
  inflight: number;
  bigBodyStarted: number;
  bigBodyFinished: number;
  bigBodyAborted: number;
}

async function startHostile(
  stack: CleanupStack,
): Promise<{ origin: string; stats: () => Promise<FixtureStats> }> {
  const proc = spawnTracked(stack, process.execPath, [HOSTILE], { ...process.env, PORT: '0' });
  const port = await waitFor(`hostile-http-server to listen (${proc.output()})`, () => {
    const m = /LISTENING (\d+)/.exec(proc.output());
    return m ? Number(m[1]) : undefined;
  });
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    stats: async () => (await (await fetch(`${origin}/stats`)).json()) as FixtureStats,
  };
}

describe('hostile remote servers beside a healthy one', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  let host: TestHost;
  let healthy: SpawnedServer;
  let fixture: Awaited<ReturnType<typeof startHostile>>;

  before(async () => {
    [fixture, healthy] = await Promise.all([startHostile(stack), startModernHttp(stack)]);
    const at = (path: string, timeout = TIMEOUT_MS) => ({ url: `${fixture.origin}${path}`, timeout });
    host = await createTestHost(stack, {
      servers: {
        healthy: { url: `${healthy.origin}/mcp` },
        html: at('/html'),
        'silent-sse': at('/silent-sse'),
        'silent-legacy': { ...at('/silent-legacy'), type: 'sse' },
        loop: at('/loop/a'),
        error500: at('/error500'),
        'init-only': at('/init-only'),
        'not-jsonrpc': at('/not-jsonrpc'),
        // The SDK's default for this one: only a stop can end its connect early.
        'stopped-early': at('/silent-sse', 600_000),
      },
    });
  });
  after(() => stack.run());

  /** The failure of a hostile server: its own state, hint attached. */
  async function failure(id: string) {
    return failedError(await waitForState(host.host, id, 'failed'));
  }

  it('the healthy server connects and answers', async () => {
    await waitForState(host.host, 'healthy', 'connected');
    const result = await host.host.callTool('healthy', 'echo', { message: 'still here' });
    assert.match(JSON.stringify(result.content), /still here/);
  });

  it('a URL answering an HTML page with 200 is called a web page, not MCP', async () => {
    const error = await failure('html');
    assert.equal(error.code, 'not_mcp');
    assert.equal(error.message, 'this URL serves a web page (text/html), not MCP');
    assert.match(error.details?.hint ?? '', /not an MCP server/);
  });

  it('an event stream that never sends a byte fails within the timeout, saying so', async () => {
    const error = await failure('silent-sse');
    assert.equal(error.code, 'timeout');
    assert.match(
      error.message,
      /^no response within 3 s \(the server opened an event stream answering \S+ and sent nothing\)$/,
    );
  });

  it('a legacy SSE stream that never names its endpoint fails within the timeout', async () => {
    const error = await failure('silent-legacy');
    assert.equal(error.code, 'timeout');
    assert.equal(
      error.message,
      'no response within 3 s (the server opened its event stream (GET) and sent nothing)',
    );
  });

  it('a redirect loop is named with its hops', async () => {
    const error = await failure('loop');
    assert.equal(error.code, 'redirect_loop');
    assert.match(error.message, /^redirect loop after \d+ hops \(\/loop\/a → \/loop\/b → \/loop\/a/);
  });

  it('a 500 with a 10 MB body is quoted from its first 200 characters, never read whole', async () => {
    const error = await failure('error500');
    assert.equal(error.code, 'http_error');
    assert.match(error.message, /^HTTP 500: Internal Server Error: the upstream database is on fire\./);
    assert.ok(error.message.length <= 'HTTP 500: '.length + 201, `too long: ${error.message.length}`);
    const stats = await fixture.stats();
    assert.ok(stats.bigBodyStarted >= 1);
    assert.equal(stats.bigBodyFinished, 0, 'the host read the whole 10 MB body');
    await waitFor('the host to hang up on the big body', async () =>
      (await fixture.stats()).bigBodyAborted === stats.bigBodyStarted ? true : undefined,
    );
  });

  it('a server that answers initialize but never tools/list fails naming the list', async () => {
    const error = await failure('init-only');
    assert.equal(error.code, 'timeout');
    assert.equal(error.message, 'no response within 3 s (waiting for the answer to tools/list)');
  });

  it('JSON that is not JSON-RPC is quoted', async () => {
    const error = await failure('not-jsonrpc');
    assert.equal(error.code, 'not_mcp');
    assert.equal(
      error.message,
      'the server answered JSON that is not JSON-RPC: {"hello":"world","status":"ok"}',
    );
  });

  it('stopping a server mid-connect ends it at once and closes every socket', async () => {
    assert.equal(host.host.serverState('stopped-early')?.kind, 'connecting');
    await host.host.setEnabled('stopped-early', false);
    assert.equal(host.host.serverState('stopped-early')?.kind, 'disabled');
    // Every response the fixture opened (silent streams, unanswered POSTs) was closed by the host.
    await waitFor('every hostile response to be closed by the host', async () =>
      (await fixture.stats()).inflight === 0 ? true : undefined,
    );
  });

  it('the healthy server still answers after all of that', async () => {
    const result = await host.host.callTool('healthy', 'echo', { message: 'unaffected' });
    assert.match(JSON.stringify(result.content), /unaffected/);
    assert.equal(host.host.serverState('healthy')?.kind, 'connected');
  });
});

describe('mcp-desk --timeout against servers that never answer', { timeout: 180_000 }, () => {
  const stack = new CleanupStack();
  let config: string;
  let dataDir: string;

  before(async () => {
    // Remote, so its connect is a few loopback round trips: a node process spawned twice (probe
    // sibling, then the server) may need more than 2 s on a loaded two-core machine.
    const [fixture, healthy] = await Promise.all([startHostile(stack), startModernHttp(stack)]);
    const dir = await tempDir(stack);
    dataDir = join(dir, 'data');
    config = join(dir, 'servers.json');
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: {
          healthy: { url: `${healthy.origin}/mcp` },
          hang: nodeServer(SERVERS.hang),
          silent: { url: `${fixture.origin}/silent-sse` },
        },
      }),
    );
  });
  after(() => stack.run());

  // The SDK's default is 60 s per step (63 s measured for `tools` before); far more than
  // start-up plus the steps of a connect (probe, initialize, lists) at 2 s each, even loaded.
  const SDK_DEFAULT_MS = 60_000;

  async function timed(...args: string[]) {
    const started = Date.now();
    const run = await runCli(
      ['--config', config, '--timeout', '2000', ...args],
      { MCP_DESK_DATA_DIR: dataDir },
      120_000,
    );
    return { ...run, ms: Date.now() - started };
  }

  it('tools lists the healthy server and names each silent one, without waiting for the SDK default', async () => {
    const run = await timed('tools');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^healthy\techo\t/m, run.stderr);
    assert.match(
      run.stderr,
      /^hang: failed: no response within 2 s \((waiting for the answer to initialize|server\/discover probe)\)/m,
    );
    assert.match(
      run.stderr,
      /^silent: failed: no response within 2 s \(the server opened an event stream answering \S+ and sent nothing\)(?:\. Hint: .*)?$/m,
    );
    assert.ok(run.ms < SDK_DEFAULT_MS, `took ${run.ms} ms: waited for the SDK default`);
  });

  it('call on a never-answering server exits 1 naming it, without waiting for the SDK default', async () => {
    const run = await timed('call', 'hang', 'anything');
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^mcp-desk: server "hang" is not connected: failed: no response within 2 s/m);
    assert.ok(run.ms < SDK_DEFAULT_MS, `took ${run.ms} ms: waited for the SDK default`);
  });
});
