/**
 * Soak, CI-sized: thousands of tool calls through one host against a real stdio server, with
 * memory and the host's counters read after a full GC at evenly spaced points once warmed
 * up. Listeners and timers must not move, nothing may stay in flight between readings, and
 * the heap must stay flat (bounded buffers fill during the warm-up, then hold). The full
 * 10,000-call run is the bench's `rss_growth_10k_pct`; SOAK_CALLS resizes this one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isQuiet } from '../../electron/host/servers/host-diagnostics.js';
import { CHAOS_SERVER } from '../helpers/chaos.js';
import {
  CleanupStack,
  createTestHost,
  nodeServer,
  textOf,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';
import { soak } from '../helpers/soak.js';

const TOTAL = Number(process.env.SOAK_CALLS ?? 3000);
const WARMUP = Math.round(TOTAL / 4);
/** The goal for growth after the warm-up, in percent. */
const MAX_HEAP_GROWTH_PCT = 10;

describe('soak', { timeout: 180_000 }, () => {
  const stack = new CleanupStack();
  let t: TestHost;

  before(async () => {
    t = await createTestHost(stack, { servers: { worker: nodeServer(CHAOS_SERVER) }, dataDir: true });
    await waitForState(t.host, 'worker', 'connected');
  });
  after(() => stack.run());

  it(`keeps listeners, timers and the heap flat over ${TOTAL} calls`, async () => {
    const result = await soak(
      t.host,
      async (i) => {
        const text = textOf(
          await t.host.callTool('worker', 'work', { id: `k${i}`, ms: 0 }, { callId: `k${i}` }),
        );
        assert.match(text, new RegExp(`^k${i} \\d+$`));
      },
      { total: TOTAL, warmup: WARMUP, concurrency: 10 },
    );
    const rows = result.samples.map(
      (s) =>
        `${s.calls}: heap ${(s.heapUsed / 1048576).toFixed(1)} MB, rss ${(s.rss / 1048576).toFixed(1)} MB`,
    );
    console.log(
      `soak: heap ${result.heapGrowthPct}%, rss ${result.rssGrowthPct}% after warm-up\n${rows.join('\n')}`,
    );

    const first = result.samples[0];
    for (const s of result.samples) {
      assert.ok(isQuiet(s.diagnostics), `in flight at ${s.calls} calls: ${JSON.stringify(s.diagnostics)}`);
      assert.deepEqual(s.diagnostics.listeners, first.diagnostics.listeners, `listeners at ${s.calls} calls`);
      assert.ok(s.timers <= first.timers, `timers grew to ${s.timers} (from ${first.timers}) at ${s.calls}`);
      assert.deepEqual(s.diagnostics.processes, first.diagnostics.processes, `processes at ${s.calls} calls`);
    }
    assert.ok(
      result.heapGrowthPct < MAX_HEAP_GROWTH_PCT,
      `heap grew ${result.heapGrowthPct}% after the warm-up:\n${rows.join('\n')}`,
    );
  });
});
