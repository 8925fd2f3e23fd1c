/**
 * House rule 5: no secret in a log, a trace, an error message or the renderer. Secrets go
 * in through a stdio server's env and a remote server's Authorization header; everything
 * the renderer can see (list, router, events, log, trace, errors) is checked for them,
 * while the server itself must still receive the real value.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MASKED_VALUE } from '../../shared/domain/server-state.js';
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

const ENV_SECRET = 'supersecretvalue123';
const TOKEN = 'tok_abcdef123456';
const STDERR_SECRET = 'stderr-secret-987654';
const SECRETS = [ENV_SECRET, TOKEN, STDERR_SECRET];

function assertClean(what: string, value: unknown): void {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  for (const s of SECRETS)
    assert.ok(
      !text.includes(s),
      `${what} leaks ${s}: ${text.slice(Math.max(0, text.indexOf(s) - 200), text.indexOf(s) + 50)}`,
    );
}

/**
 * A server that speaks its secret on stderr and never answers. A shell speaks within a
 * millisecond of starting, so it has spoken long before the 3 s timeout fails it however loaded
 * the machine (node, the first talker, needed most of a second before its first word, and more
 * under load: it was failed before it spoke). Windows has no sh: node there.
 */
const TALKER =
  process.platform === 'win32'
    ? {
        command: process.execPath,
        args: [
          '-e',
          'process.stderr.write("my key is " + process.env.TALKER_SECRET); setInterval(() => {}, 1000)',
        ],
      }
    : { command: 'sh', args: ['-c', 'printf "my key is %s" "$TALKER_SECRET" >&2; exec sleep 3600'] };

describe('secret redaction', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  let t: TestHost;
  let recorder: HeaderRecorder;
  const seen: unknown[] = [];

  before(async () => {
    const http = await startEverythingHttp(stack, 'streamableHttp');
    recorder = await startHeaderRecorder(stack, http.port);
    t = await createTestHost(stack, {
      servers: {
        local: nodeServer(SERVERS.everything, ['stdio'], { env: { API_KEY: ENV_SECRET } }),
        remote: { url: `${recorder.origin}/mcp`, headers: { Authorization: `Bearer ${TOKEN}` } },
        // Says its secret on stderr with no trailing newline, then never answers.
        talker: { ...TALKER, env: { TALKER_SECRET: STDERR_SECRET }, timeout: 3000 },
      },
      init: false,
    });
    // Everything the renderer would receive live, from before the first connect.
    t.events.onAny((event, payload) => seen.push({ event, payload }));
    await t.host.init();
    await Promise.all([
      waitForState(t.host, 'local', 'connected'),
      waitForState(t.host, 'remote', 'connected'),
      waitForState(t.host, 'talker', 'failed'),
    ]);
  });
  after(() => stack.run());

  it('the servers still receive the real values', async () => {
    const env = JSON.parse(textOf(await t.host.callTool('local', 'get-env', {}))) as Record<string, string>;
    assert.equal(env.API_KEY, ENV_SECRET);
    assert.ok(
      recorder.requests.length > 0 &&
        recorder.requests.every((r) => r.headers.authorization === `Bearer ${TOKEN}`),
    );
  });

  it('the server list masks secret-named env and headers', async () => {
    const list = t.host.list();
    assertClean('host.list()', list);
    const local = list.find((s) => s.id === 'local')?.config as { env?: Record<string, string> };
    const remote = list.find((s) => s.id === 'remote')?.config as { headers?: Record<string, string> };
    assert.equal(local.env?.API_KEY, MASKED_VALUE);
    assert.equal(remote.headers?.Authorization, MASKED_VALUE);
    const routed = await t.router.handle('servers.list', {});
    assertClean('servers.list via the router', routed);
  });

  it('traces and logs show [redacted] instead of the values', async () => {
    await t.host.callTool('local', 'get-env', {});
    const trace = t.host.trace('local');
    const reply = trace.filter((e) => e.direction === 'in' && e.json.includes('API_KEY')).pop();
    assert.ok(reply, 'the get-env reply is in the trace');
    assert.match(reply.json, /\[redacted\]/);
    for (const id of ['local', 'remote', 'talker']) {
      assertClean(`trace(${id})`, t.host.trace(id));
      assertClean(`log(${id})`, t.host.log(id));
    }
    assertClean('servers.trace via the router', await t.router.handle('servers.trace', { id: 'local' }));
  });

  it("a failed server's error quotes its stderr without the secret", () => {
    const error = failedError(t.host.list().find((s) => s.id === 'talker')!);
    assert.match(error.message, /my key is/, 'the last words are still quoted');
    assertClean('the error message', error.message);
  });

  it('nothing leaks through live events', async () => {
    // server.output is batched: wait for the batch that carries a get-env reply.
    await waitFor('a server.output event with the get-env reply', () =>
      seen.some((e) => JSON.stringify(e).includes('server.output') && JSON.stringify(e).includes('API_KEY'))
        ? true
        : undefined,
    );
    assertClean('events', seen);
  });
});
