/**
 * Hostile stdio servers, part 5: server-to-client requests in a tight loop. Thousands of
 * sampling, elicitation and roots requests: at most LIMITS.serverRequestsInFlight wait at
 * once, the rest are refused at once with a JSON-RPC error that says why, the person's queue
 * never holds more than the cap, and the healthy server keeps working.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LIMITS, OVER_CAP_RPC_CODE } from '../../electron/host/util/limits.js';
import {
  assertHealthy,
  cleanUpAndAssertPeakRss,
  hostileServer,
  hostWithHealthy,
} from '../helpers/hostile-harness.js';
import { CleanupStack, textOf, type TestHost } from '../helpers/host-harness.js';

interface Tally {
  sent: number;
  results: number;
  errors: number;
  errorCodes: Record<string, number>;
  /** The first message seen for each error code. */
  errorSamples: Record<string, string>;
  outstanding: number;
}

describe('hostile stdio servers: request floods', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  let t: TestHost;
  /** The most requests of each kind the person's queue held at once. */
  const pendingPeak = new Map<string, number>();

  before(async () => {
    t = await hostWithHealthy(stack, { asker: hostileServer() }, { roots: ['/tmp'] });
    const off = t.events.on('pending.changed', (list) => {
      const counts = new Map<string, number>();
      for (const p of list) counts.set(p.kind, (counts.get(p.kind) ?? 0) + 1);
      for (const [kind, n] of counts) pendingPeak.set(kind, Math.max(pendingPeak.get(kind) ?? 0, n));
    });
    stack.defer(off);
  });
  after(() => cleanUpAndAssertPeakRss(stack));

  const flood = async (method: string, count: number): Promise<Tally> =>
    JSON.parse(
      textOf(
        await t.host.callTool('asker', 'ask-flood', {
          method,
          count,
          maxOutstanding: LIMITS.serverRequestsInFlight,
        }),
      ),
    ) as Tally;

  for (const [method, kind] of [
    ['elicitation/create', 'elicitation'],
    ['sampling/createMessage', 'sampling'],
  ] as const) {
    it(`refuses ${method} requests over the cap of ${LIMITS.serverRequestsInFlight} waiting`, async () => {
      const tally = await flood(method, 3000);
      assert.ok(tally.outstanding <= LIMITS.serverRequestsInFlight, JSON.stringify(tally));
      // Every request beyond those waiting got an answer at once: mostly the cap's refusal
      // (sampling's own rate limit may refuse a few first, with its own error).
      assert.ok(tally.errors >= 3000 - LIMITS.serverRequestsInFlight, JSON.stringify(tally));
      const refused = tally.errorCodes[String(OVER_CAP_RPC_CODE)] ?? 0;
      assert.ok(refused >= 3000 - 100, JSON.stringify(tally));
      assert.match(
        tally.errorSamples[String(OVER_CAP_RPC_CODE)] ?? '',
        /refused .*server "asker" already has 16 requests waiting/,
      );
      const peak = pendingPeak.get(kind) ?? 0;
      assert.ok(peak <= LIMITS.serverRequestsInFlight, `the ${kind} queue peaked at ${peak}`);
      await assertHealthy(t);
    });
  }

  it('answers thousands of roots/list requests without queueing them', async () => {
    const tally = await flood('roots/list', 3000);
    assert.equal(tally.results, 3000, JSON.stringify(tally));
    await assertHealthy(t);
  });
});
