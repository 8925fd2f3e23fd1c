import type { LatencySummary } from '../../../shared/domain/metrics.js';

/** How far back latency percentiles look by default: five minutes before the newest call. */
export const DEFAULT_WINDOW_MS = 5 * 60_000;
/** How many samples the ring keeps by default (the window is also capped by count). */
export const DEFAULT_CAPACITY = 1024;

/**
 * A sliding window of call latencies in a fixed-size ring: recording is two typed-array writes
 * (no allocation, nothing grows), and the percentiles are computed only when someone reads
 * them. A sample counts while it is younger than `windowMs` and among the newest `capacity`.
 */
export class LatencyWindow {
  private readonly at: Float64Array;
  private readonly ms: Float64Array;
  private next = 0;
  private filled = 0;

  constructor(
    readonly capacity = DEFAULT_CAPACITY,
    readonly windowMs = DEFAULT_WINDOW_MS,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be at least 1');
    this.at = new Float64Array(capacity);
    this.ms = new Float64Array(capacity);
  }

  /** Record one latency (ms) observed at `at` (ms since the epoch). */
  record(latencyMs: number, at: number): void {
    this.at[this.next] = at;
    this.ms[this.next] = latencyMs;
    this.next = (this.next + 1) % this.capacity;
    if (this.filled < this.capacity) this.filled++;
  }

  /** The samples inside the window at `now`, oldest first, as [at, ms] pairs (for persisting). */
  samples(now: number): [number, number][] {
    const out: [number, number][] = [];
    const from = now - this.windowMs;
    const start = (this.next - this.filled + this.capacity) % this.capacity;
    for (let k = 0; k < this.filled; k++) {
      const i = (start + k) % this.capacity;
      if (this.at[i] >= from) out.push([this.at[i], this.ms[i]]);
    }
    return out;
  }

  /**
   * p50/p95/p99 (nearest rank) of the samples inside the window that ends at the newest sample
   * (or `now`, if that is earlier): the same calls give the same percentiles whenever they are
   * read, instead of thinning out as the clock moves on between visits.
   */
  summary(now: number): LatencySummary {
    const newest = this.filled === 0 ? now : this.at[(this.next - 1 + this.capacity) % this.capacity];
    const values = this.samples(Math.min(now, newest)).map(([, ms]) => ms);
    values.sort((a, b) => a - b);
    return {
      samples: values.length,
      windowMs: this.windowMs,
      p50Ms: nearestRank(values, 50),
      p95Ms: nearestRank(values, 95),
      p99Ms: nearestRank(values, 99),
    };
  }

  clear(): void {
    this.next = 0;
    this.filled = 0;
  }
}

/** The nearest-rank percentile of sorted values: the smallest value with at least p% at or below it. */
export function nearestRank(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return round3(sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]);
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}
