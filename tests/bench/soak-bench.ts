/**
 * Soak benchmark: 10,000 tool calls through one host (server-everything over stdio, `echo`,
 * ten in flight), memory read after a full GC at nine points from the end of the warm-up
 * (2,000 calls) to the end. Key: rss_growth_10k_pct = growth of RSS from the median of the
 * first three readings to the median of the last three, in percent (goal <= 10).
 * Also reported: the heap's growth and the listener and timer counts at both points.
 * BENCH_SOAK_CALLS and BENCH_SOAK_WARMUP resize it. No figure is asserted here.
 */
import { withBenchHost } from '../helpers/bench-host.js';
import { soak } from '../helpers/soak.js';

const TOTAL = Number(process.env.BENCH_SOAK_CALLS ?? 10_000);
const WARMUP = Number(process.env.BENCH_SOAK_WARMUP ?? 2_000);

/** Run the benchmark; returns its keys (and the raw numbers behind them). */
export async function runSoakBench(): Promise<Record<string, number>> {
  return withBenchHost(['everything'], async (host) => {
    const result = await soak(
      host,
      async (i) => {
        const r = await host.callTool('everything', 'echo', { message: `soak ${i}` });
        const block = r.content[0];
        if (block?.type !== 'text' || !block.text.includes(`soak ${i}`))
          throw new Error(`call ${i} got a wrong answer: ${JSON.stringify(r.content)}`);
      },
      { total: TOTAL, warmup: WARMUP, concurrency: 10 },
    );
    const mb = (n: number) => Number((n / 1024 / 1024).toFixed(1));
    return {
      rss_growth_10k_pct: result.rssGrowthPct,
      soak_heap_growth_pct: result.heapGrowthPct,
      soak_rss_warm_mb: mb(result.warm.rss),
      soak_rss_end_mb: mb(result.end.rss),
      soak_heap_warm_mb: mb(result.warm.heapUsed),
      soak_heap_end_mb: mb(result.end.heapUsed),
      soak_listeners_warm: result.warm.listeners,
      soak_listeners_end: result.end.listeners,
      soak_timers_warm: result.warm.timers,
      soak_timers_end: result.end.timers,
      soak_listeners_max: Math.max(...result.samples.map((x) => x.listeners)),
      soak_timers_max: Math.max(...result.samples.map((x) => x.timers)),
      soak_calls: result.samples[result.samples.length - 1].calls,
    };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runSoakBench().then(
    (keys) => console.log(JSON.stringify(keys)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
