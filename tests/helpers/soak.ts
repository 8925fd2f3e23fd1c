// The soak loop shared by the soak test (CI-sized) and the soak bench (10,000 calls): calls
// through the host, memory and the host's counters sampled after a warm-up and at the end.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { McpHost } from '../../electron/host/mcp-host.js';
import type { HostDiagnosticsSnapshot } from '../../electron/host/servers/host-diagnostics.js';

/** One reading of memory and of the counters that must stay constant. */
export interface SoakSample {
  calls: number;
  rss: number;
  heapUsed: number;
  listeners: number;
  timers: number;
  diagnostics: HostDiagnosticsSnapshot;
}

/** What a soak run saw: samples from the end of the warm-up to the end, evenly spaced. */
export interface SoakResult {
  samples: SoakSample[];
  /** The median of the first three samples (one reading of RSS moves by a few percent). */
  warm: SoakSample;
  /** The median of the last three. */
  end: SoakSample;
  rssGrowthPct: number;
  heapGrowthPct: number;
}

/**
 * A full collection, so what is measured is what is still reachable. `--expose-gc` is set at
 * run time (the runner's command line is not ours); the flag exposes `gc` to new contexts.
 */
export function fullGc(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Settle the heap: two full collections with a turn of the event loop between. */
async function settle(gc: () => void): Promise<void> {
  gc();
  await new Promise((r) => setImmediate(r));
  gc();
}

async function sample(host: McpHost, calls: number, gc: () => void): Promise<SoakSample> {
  await settle(gc);
  const m = process.memoryUsage();
  const diagnostics = await host.diagnostics();
  return {
    calls,
    rss: m.rss,
    heapUsed: m.heapUsed,
    listeners: diagnostics.listeners.total,
    timers: diagnostics.timers.active,
    diagnostics,
  };
}

/**
 * `total` calls through `call`, `concurrency` at a time; memory is sampled (after a full GC)
 * at `samples` evenly spaced points from the end of `warmup` to the end, and growth is read
 * between the medians of the first and the last three. `call(i)` must throw on a wrong answer.
 */
export async function soak(
  host: McpHost,
  call: (i: number) => Promise<void>,
  opts: { total: number; warmup: number; concurrency: number; samples?: number },
): Promise<SoakResult> {
  const gc = fullGc();
  const points = Math.max(6, opts.samples ?? 9);
  let next = 0;
  const runUntil = async (limit: number) => {
    const lane = async () => {
      while (next < limit) await call(next++);
    };
    await Promise.all(Array.from({ length: opts.concurrency }, lane));
  };
  const samples: SoakSample[] = [];
  for (let k = 0; k < points; k++) {
    await runUntil(Math.round(opts.warmup + ((opts.total - opts.warmup) * k) / (points - 1)));
    samples.push(await sample(host, next, gc));
  }
  const warm = medianByRss(samples.slice(0, 3));
  const end = medianByRss(samples.slice(-3));
  const pct = (a: number, b: number) => Number((((b - a) / a) * 100).toFixed(2));
  const heap = (xs: SoakSample[]) => [...xs].sort((a, b) => a.heapUsed - b.heapUsed)[1].heapUsed;
  return {
    samples,
    warm,
    end,
    rssGrowthPct: pct(warm.rss, end.rss),
    heapGrowthPct: pct(heap(samples.slice(0, 3)), heap(samples.slice(-3))),
  };
}

function medianByRss(three: SoakSample[]): SoakSample {
  return [...three].sort((a, b) => a.rss - b.rss)[1];
}
