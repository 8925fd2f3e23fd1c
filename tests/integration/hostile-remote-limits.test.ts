/**
 * A remote (Streamable HTTP) server that floods notifications or whose connections break
 * (tests/fixtures/flaky-http-server.mjs), beside a healthy server: a flood is capped like a stdio
 * server's (dropped unread past the per-second cap, one summary line in the log); a request
 * whose connection is reset before any byte of an answer is sent once more when that is safe (a
 * read), and not when the server may have started the work (a tools/call it read whole).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { retryable } from '../../electron/host/connection/reset-retry.js';
import { LIMITS } from '../../electron/host/util/limits.js';
import {
  CleanupStack,
  createTestHost,
  nodeServer,
  rejection,
  SERVERS,
  spawnTracked,
  textOf,
  waitFor,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';

const FLAKY = join(SERVERS.modern, '../flaky-http-server.mjs');

interface Stats {
  seen: Record<string, number>;
  resets: number;
}

describe('hostile remote servers: floods and broken connections', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  let t: TestHost;
  let origin: string;
  const stats = async (): Promise<Stats> => (await (await fetch(`${origin}/stats`)).json()) as Stats;
  const armReset = (method: string) =>
    fetch(`${origin}/control/reset?method=${encodeURIComponent(method)}`, { method: 'POST' });

  before(async () => {
    const proc = spawnTracked(stack, process.execPath, [FLAKY], { ...process.env, PORT: '0' });
    const port = await waitFor(`flaky-http-server to listen (${proc.output()})`, () => {
      const m = /LISTENING (\d+)/.exec(proc.output());
      return m ? Number(m[1]) : undefined;
    });
    origin = `http://127.0.0.1:${port}`;
    t = await createTestHost(stack, {
      servers: { flaky: { url: `${origin}/mcp` }, healthy: nodeServer(SERVERS.crash) },
    });
    await waitForState(t.host, 'flaky', 'connected');
    await waitForState(t.host, 'healthy', 'connected');
  });
  after(() => stack.run());

  it('caps a remote notification flood like a stdio one: dropped unread past the cap, summed up in the log', async () => {
    const FLOOD = 20_000;
    const summaries = () =>
      t.host
        .log('flaky')
        .map((l) =>
          /dropped ([\d,]+) notifications from this server unread \(over 1000 per second\)/.exec(l.text),
        )
        .filter((m) => m !== null)
        .map((m) => Number(m[1].replace(/,/g, '')));
    const earlier = summaries().length;
    let delivered = 0;
    const started = Date.now();
    const result = await t.host.callTool(
      'flaky',
      'notify-flood',
      { count: FLOOD },
      { onProgress: () => void delivered++ },
    );
    const seconds = (Date.now() - started) / 1000;
    assert.equal(textOf(result), 'flooded');
    // Every progress notification either reached the call or was counted as dropped; each window's
    // count is written when its second ends, so wait for the sum instead of assuming one line.
    const dropped = await waitFor(`${FLOOD - delivered} notifications summed up as dropped`, () => {
      const sum = summaries()
        .slice(earlier)
        .reduce((x, y) => x + y, 0);
      return sum >= FLOOD - delivered ? sum : undefined;
    });
    assert.equal(delivered + dropped, FLOOD);
    // However slowly a loaded machine parsed the flood, at most the cap passed in each one-second
    // window it spanned. (Without the cap all 20,000 pass: this fails unless the flood took 20 s.)
    const windows = Math.ceil(seconds) + 1;
    assert.ok(
      delivered <= windows * LIMITS.notificationsPerSecond,
      `${delivered} notifications passed in ${seconds} s`,
    );
    assert.equal(textOf(await t.host.callTool('healthy', 'echo', { message: 'still here' })), 'still here');
  });

  it('sends a read once more when its connection is reset before any answer', async () => {
    await armReset('resources/read');
    const before = await stats();
    const result = await t.host.readResource('flaky', 'flaky://note');
    assert.match(result.contents[0].text ?? '', /^read \d+$/);
    const after = await stats();
    assert.equal(after.resets, before.resets + 1, 'the first attempt was reset');
    assert.equal((after.seen['resources/read'] ?? 0) - (before.seen['resources/read'] ?? 0), 2, 'sent twice');
    assert.ok(
      t.host
        .log('flaky')
        .some((l) => /reset before any answer to resources\/read .*sent it once more/.test(l.text)),
    );
  });

  it('does not send a tools/call again that the server read before the connection broke', async () => {
    await armReset('tools/call count');
    const before = await stats();
    const error = await rejection(t.host.callTool('flaky', 'count', {}));
    assert.match(error.message, /server "flaky"/);
    const after = await stats();
    assert.equal(after.resets, before.resets + 1);
    assert.equal(
      (after.seen['tools/call count'] ?? 0) - (before.seen['tools/call count'] ?? 0),
      1,
      'the call reached the server once and was not repeated',
    );
    // The connection itself is fine: the next call goes through.
    assert.equal(textOf(await t.host.callTool('flaky', 'echo', { message: 'next' })), 'next');
  });

  it('sends a tools/call again only when the reset shows it never left (broken while written or connecting)', () => {
    const fetchFailed = (cause: object) => new TypeError('fetch failed', { cause });
    const socket = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    const writeReset = Object.assign(new Error('write EPIPE'), { code: 'EPIPE', syscall: 'write' });
    const refused = Object.assign(new Error('connect ECONNREFUSED'), {
      code: 'ECONNREFUSED',
      syscall: 'connect',
    });
    assert.equal(retryable({ method: 'tools/list', error: fetchFailed(socket) }), true);
    assert.equal(retryable({ method: 'tools/call', error: fetchFailed(socket) }), false);
    assert.equal(retryable({ method: 'tools/call', error: fetchFailed(writeReset) }), true);
    // Not a reset at all: nothing listening is the connect's own failure, not retried here.
    assert.equal(retryable({ method: 'tools/list', error: fetchFailed(refused) }), false);
    assert.equal(retryable({ method: 'tools/call', error: new Error('HTTP 500') }), false);
  });
});
