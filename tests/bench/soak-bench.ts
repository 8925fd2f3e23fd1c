/**
 * Soak benchmark: 10,000 tool calls through one host (server-everything over stdio, `echo`,
 * ten in flight), memory read after a full GC at nine points from the end of the warm-up
 * (2,000 calls) to the end. Key: rss_growth_10k_pct = growth of RSS from the median of the
 * first three readings to the median of the last three, in percent (goal <= 10).
 * Also reported: the heap's growth and the listener and timer counts at both points.
 * BENCH_SOAK_CALLS and BENCH_SOAK_WARMUP resize it. No figure is asserted here.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { composeHost } from '../../electron/host/compose.js';
import { MemoryConfigStore } from '../../electron/host/config/config-store.js';
import { soak } from '../helpers/soak.js';

const everything = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
const TOTAL = Number(process.env.BENCH_SOAK_CALLS ?? 10_000);
const WARMUP = Number(process.env.BENCH_SOAK_WARMUP ?? 2_000);

/** Run the benchmark; returns its keys (and the raw numbers behind them). */
export async function runSoakBench(): Promise<Record<string, number>> {
  // A data folder, as the desktop app has: the audit log goes to disk, not to a memory ring.
  const dataDir = await mkdtemp(join(tmpdir(), 'mcp-desk-bench-'));
  const services = await composeHost({
    configPath: '(memory)',
    store: new MemoryConfigStore(),
    mode: 'cli',
    dataDir,
  });
  try {
    await services.host.init();
    await services.host.add('everything', { command: process.execPath, args: [everything, 'stdio'] });
    const [state] = await services.host.whenSettled(60_000);
    if (state?.state.kind !== 'connected')
      throw new Error(`host could not connect: ${JSON.stringify(state?.state)}`);
    const result = await soak(
      services.host,
      async (i) => {
        const r = await services.host.callTool('everything', 'echo', { message: `soak ${i}` });
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
  } finally {
    await services.dispose();
    await rm(dataDir, { recursive: true, force: true });
  }
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
