import type { ServerState } from '../../../shared/domain/server-state.js';
import type { MetricsSnapshot, ModelUsage, TokenUsage } from '../../../shared/domain/metrics.js';
import type { Disposable } from '../util/disposable.js';
import { HostFailure, toHostError } from '../util/errors.js';
import { jsonSize } from './json-size.js';
import { DEFAULT_CAPACITY, DEFAULT_WINDOW_MS } from './latency-window.js';
import {
  emptyPersisted,
  mergeMetrics,
  modelKey,
  readMetricsFile,
  withFileLock,
  writeMetricsFile,
  type MetricsDelta,
  type PersistedMetrics,
} from './metrics-file.js';
import {
  addCounters,
  subtractCounters,
  zeroCounters,
  ServerMeter,
  type CallOutcome,
  type ServerCounters,
} from './server-meter.js';

/** Where and how metrics are kept. */
export interface MetricsOptions {
  /** The metrics file shared by every process of this data folder; absent keeps them in memory. */
  path?: string;
  /** How long changes wait before they are written (debounced), ms. */
  flushMs?: number;
  /** Latency ring size per server. */
  capacity?: number;
  /** Latency window, ms. */
  windowMs?: number;
}

const DEFAULT_FLUSH_MS = 2000;

interface ModelEntry {
  usage: ModelUsage;
  mark: ModelUsage;
}

/**
 * Counts what the host's servers and models did (see shared/domain/metrics.ts). Recording is a
 * few increments and one ring write; percentiles and the file are dealt with only when someone
 * reads or the debounced flush runs. With a file, each process adds only its own increments
 * to what is there, so the app, browser mode and one-shot CLI runs all count into one place and
 * `mcp-desk metrics` in a later process reads what earlier ones did.
 */
export class MetricsRecorder implements Disposable {
  private readonly meters = new Map<string, ServerMeter>();
  private readonly models = new Map<string, ModelEntry>();
  private since: number;
  private timer?: NodeJS.Timeout;
  private chain: Promise<void> = Promise.resolve();
  private readonly flushMs: number;
  private readonly capacity: number;
  private readonly windowMs: number;

  private constructor(
    private readonly opts: MetricsOptions,
    seed: PersistedMetrics | undefined,
  ) {
    this.flushMs = opts.flushMs ?? DEFAULT_FLUSH_MS;
    this.capacity = opts.capacity ?? DEFAULT_CAPACITY;
    this.windowMs = opts.windowMs ?? DEFAULT_WINDOW_MS;
    this.since = seed?.since ?? Date.now();
    if (seed) this.seed(seed);
  }

  /** Open with what the file holds (a missing or unreadable file starts at zero). */
  static async open(opts: MetricsOptions = {}): Promise<MetricsRecorder> {
    return new MetricsRecorder(opts, opts.path ? await readMetricsFile(opts.path) : undefined);
  }

  /** Metrics of this process only, never written anywhere. */
  static inMemory(opts: Omit<MetricsOptions, 'path'> = {}): MetricsRecorder {
    return new MetricsRecorder(opts, undefined);
  }

  /**
   * One settled tool call: `startedAt` is performance.now() at its start; exactly one of result
   * and error. Called on the hot path: no serialising, no allocation beyond the sample pair.
   */
  toolCall(serverId: string, startedAt: number, args: unknown, result: unknown, error?: unknown): void {
    const latency = performance.now() - startedAt;
    const outcome: CallOutcome =
      error === undefined
        ? (result as { isError?: unknown } | undefined)?.isError === true
          ? 'toolErrors'
          : 'ok'
        : outcomeOf(error);
    const bytesIn = error === undefined ? jsonSize(result) : 0;
    this.meter(serverId).call(outcome, latency, jsonSize(args), bytesIn, Date.now());
    this.changed();
  }

  /** A server's connection changed state (see ServerMeter.state). */
  connectionState(serverId: string, state: ServerState): void {
    this.meter(serverId).state(state, Date.now());
    if (state.kind !== 'connecting') this.changed();
  }

  /** One model turn's usage as the provider reported it. */
  modelUsage(provider: string, model: string, usage: TokenUsage): void {
    const key = modelKey({ provider, model });
    let entry = this.models.get(key);
    if (!entry) {
      const zero: ModelUsage = { provider, model, inputTokens: 0, outputTokens: 0, totalTokens: 0, turns: 0 };
      entry = { usage: { ...zero }, mark: zero };
      this.models.set(key, entry);
    }
    entry.usage.inputTokens += usage.inputTokens;
    entry.usage.outputTokens += usage.outputTokens;
    entry.usage.totalTokens += usage.totalTokens;
    entry.usage.turns++;
    this.changed();
  }

  /** Every counter now, servers by name. */
  snapshot(): MetricsSnapshot {
    const now = Date.now();
    return {
      version: 1,
      since: this.since,
      at: now,
      servers: [...this.meters.values()]
        .sort((a, b) => a.serverId.localeCompare(b.serverId))
        .map((m) => m.snapshot(now)),
      models: [...this.models.values()].map((e) => ({ ...e.usage })),
    };
  }

  /** Start counting from zero, here and in the file. */
  async reset(): Promise<MetricsSnapshot> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.meters.clear();
    this.models.clear();
    this.since = Date.now();
    const path = this.opts.path;
    if (path) {
      const since = this.since;
      const write = this.chain.then(() =>
        withFileLock(path, () => writeMetricsFile(path, emptyPersisted(since))),
      );
      this.chain = write.catch(() => undefined);
      await write;
    }
    return this.snapshot();
  }

  /** Write this process's increments now (no-op in memory). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const path = this.opts.path;
    if (!path) return Promise.resolve();
    // Taken now, synchronously: what is recorded while the file is read and written goes next time.
    const delta = this.takeDelta();
    if (!delta) return this.chain;
    this.chain = this.chain
      .then(() =>
        withFileLock(path, async () => {
          const file = (await readMetricsFile(path)) ?? emptyPersisted(delta.since);
          await writeMetricsFile(path, mergeMetrics(file, delta, this.windowMs, Date.now()));
        }),
      )
      .catch(() => undefined);
    return this.chain;
  }

  /** Flush what is left; the host calls this after every call has settled. */
  async dispose(): Promise<void> {
    await this.flush();
  }

  private meter(serverId: string): ServerMeter {
    let m = this.meters.get(serverId);
    if (!m) {
      m = new ServerMeter(serverId, this.capacity, this.windowMs);
      this.meters.set(serverId, m);
    }
    return m;
  }

  private changed(): void {
    if (!this.opts.path || this.timer) return;
    this.timer = setTimeout(() => void this.flush(), this.flushMs);
    this.timer.unref();
  }

  private seed(file: PersistedMetrics): void {
    for (const [id, s] of Object.entries(file.servers)) {
      const counters: ServerCounters = addCounters(s.counters, zeroCounters());
      this.meter(id).seed(counters, s.samples, s.causes, s.lastCallAt);
    }
    for (const m of file.models) this.models.set(modelKey(m), { usage: { ...m }, mark: { ...m } });
  }

  /** This process's increments since the last flush, with the marks moved on; undefined if none. */
  private takeDelta(): MetricsDelta | undefined {
    const delta: MetricsDelta = { since: this.since, servers: new Map(), models: [] };
    let any = false;
    for (const m of this.meters.values()) {
      const counters = subtractCounters(m.counters, m.mark);
      const moved = Object.values(counters).some((n) => n !== 0);
      if (!moved && m.freshSamples.length === 0 && m.freshCauses.length === 0) continue;
      any = true;
      delta.servers.set(m.serverId, {
        counters,
        samples: m.freshSamples,
        causes: m.freshCauses,
        ...(m.lastCallAt !== undefined ? { lastCallAt: m.lastCallAt } : {}),
      });
      m.mark = { ...m.counters };
      m.freshSamples = [];
      m.freshCauses = [];
    }
    for (const e of this.models.values()) {
      if (e.usage.turns === e.mark.turns) continue;
      any = true;
      delta.models.push({
        ...e.usage,
        inputTokens: e.usage.inputTokens - e.mark.inputTokens,
        outputTokens: e.usage.outputTokens - e.mark.outputTokens,
        totalTokens: e.usage.totalTokens - e.mark.totalTokens,
        turns: e.usage.turns - e.mark.turns,
      });
      e.mark = { ...e.usage };
    }
    return any ? delta : undefined;
  }
}

/** Timeouts and cancellations apart from other failures; the code is the host's one converter's. */
function outcomeOf(error: unknown): CallOutcome {
  const code = error instanceof HostFailure ? error.code : toHostError(error).code;
  if (code === 'timeout') return 'timeouts';
  if (code === 'cancelled') return 'cancellations';
  return 'errors';
}
