/**
 * Hostile stdio servers, part 1: what arrives on stdout. Junk between messages, responses
 * nobody asked for, malformed responses and a notification flood each cost at most the call
 * that provoked them; the healthy server beside them keeps working, and the log says what the
 * hostile one did.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { toHostError } from '../../electron/host/util/errors.js';
import { LIMITS } from '../../electron/host/util/limits.js';
import {
  assertHealthy,
  cleanUpAndAssertPeakRss,
  hostileServer,
  hostWithHealthy,
} from '../helpers/hostile-harness.js';
import { CleanupStack, textOf, waitFor, type TestHost } from '../helpers/host-harness.js';

describe('hostile stdio servers: stdout', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  let t: TestHost;

  before(async () => {
    t = await hostWithHealthy(stack, { hostile: hostileServer() });
  });
  after(() => cleanUpAndAssertPeakRss(stack));

  const logText = () =>
    t.host
      .log('hostile')
      .map((l) => l.text)
      .join('\n');

  it('skips garbage and binary junk between valid messages, and says so', async () => {
    assert.equal(textOf(await t.host.callTool('hostile', 'garbage', {})), 'ok');
    assert.match(logText(), /stdout: skipped \d+ bytes that are not JSON-RPC/);
    assert.match(logText(), /between junk/, 'the notification between the junk still arrived');
    await assertHealthy(t);
    assert.equal(textOf(await t.host.callTool('hostile', 'echo', { message: 'after junk' })), 'after junk');
  });

  it('ignores responses with ids nobody asked for', async () => {
    assert.equal(textOf(await t.host.callTool('hostile', 'unknown-id', {})), 'ok');
    await waitFor('the stray responses to be logged', () =>
      /unknown message ID/i.test(logText()) ? true : undefined,
    );
    await assertHealthy(t);
  });

  it('takes the first of two answers with the same id and ignores the second', async () => {
    assert.equal(textOf(await t.host.callTool('hostile', 'duplicate-id', {})), 'first');
    assert.equal(textOf(await t.host.callTool('hostile', 'echo', { message: 'next' })), 'next');
    await assertHealthy(t);
  });

  it('drops responses with a wrong or missing jsonrpc version', async () => {
    assert.equal(textOf(await t.host.callTool('hostile', 'wrong-jsonrpc', {})), 'ok');
    await assertHealthy(t);
  });

  it('settles a response carrying both result and error exactly once', async () => {
    let text: string | undefined;
    let failure: unknown;
    try {
      text = textOf(await t.host.callTool('hostile', 'result-and-error', {}));
    } catch (error) {
      failure = error;
    }
    // Either reading is defensible; what matters is one settlement and a live connection.
    if (failure) assert.match(toHostError(failure).message, /hostile/);
    else assert.ok(text === 'BOTH' || text === 'ok', `unexpected result ${String(text)}`);
    assert.equal(textOf(await t.host.callTool('hostile', 'echo', { message: 'still' })), 'still');
    await assertHealthy(t);
  });

  it('survives a flood of 100k log and 100k unknown-token progress notifications during a call', async () => {
    const before = t.host.log('hostile').length;
    const events: number[] = [];
    const off = t.events.on('server.output', (e) => {
      if (e.id === 'hostile') events.push(e.log.length);
    });
    try {
      assert.equal(textOf(await t.host.callTool('hostile', 'notify-flood', { count: 100_000 })), 'flooded');
    } finally {
      off();
    }
    const log = t.host.log('hostile');
    assert.ok(log.length <= LIMITS.logLines, `log holds ${log.length} lines`);
    await waitFor('the flood summary', () =>
      t.host.log('hostile').some((l) => /dropped [\d,]+ (lines|notes)/.test(l.text)) ? true : undefined,
    );
    assert.ok(t.host.trace('hostile').length <= LIMITS.traceEntries);
    assert.ok(
      events.every((n) => n <= LIMITS.logLines),
      'no live batch is larger than the log itself',
    );
    assert.ok(before >= 0);
    await assertHealthy(t);
  });
});
