import type { ConnectionCause, ServerMetrics } from '../../../shared/domain/metrics.js';
import type { HostError, ServerState } from '../../../shared/domain/server-state.js';
import { RingBuffer } from '../util/ring-buffer.js';
import { LatencyWindow } from './latency-window.js';

/** How many connection causes each server keeps. */
export const MAX_CAUSES = 20;
const MAX_CAUSE_MESSAGE = 300;

/** The plain counters of one server (everything that adds up across processes). */
export interface ServerCounters {
  calls: number;
  ok: number;
  toolErrors: number;
  errors: number;
  timeouts: number;
  cancellations: number;
  bytesOut: number;
  bytesIn: number;
  connects: number;
  reconnects: number;
  drops: number;
  connectFailures: number;
  /** Calls that count toward latency, and their summed latency in µs (the summary's _count and _sum). */
  timedCalls: number;
  latencyMicros: number;
}

/** Which of the disjoint outcomes a settled call had. */
export type CallOutcome = 'ok' | 'toolErrors' | 'errors' | 'timeouts' | 'cancellations';

/** Counters at zero. */
export function zeroCounters(): ServerCounters {
  return {
    calls: 0,
    ok: 0,
    toolErrors: 0,
    errors: 0,
    timeouts: 0,
    cancellations: 0,
    bytesOut: 0,
    bytesIn: 0,
    connects: 0,
    reconnects: 0,
    drops: 0,
    connectFailures: 0,
    timedCalls: 0,
    latencyMicros: 0,
  };
}

/** a - b, key by key. */
export function subtractCounters(a: ServerCounters, b: ServerCounters): ServerCounters {
  const out = zeroCounters();
  for (const k of Object.keys(out) as (keyof ServerCounters)[]) out[k] = a[k] - b[k];
  return out;
}

/** a + b, key by key (missing keys of a persisted file count as zero). */
export function addCounters(a: Partial<ServerCounters>, b: ServerCounters): ServerCounters {
  const out = zeroCounters();
  for (const k of Object.keys(out) as (keyof ServerCounters)[]) out[k] = (a[k] ?? 0) + b[k];
  return out;
}

/**
 * One server's live counters, latency window and connection causes. `mark` remembers the
 * counters at the last flush, so only this process's increments are added to the shared file.
 */
export class ServerMeter {
  counters = zeroCounters();
  mark = zeroCounters();
  readonly latency: LatencyWindow;
  /** Latency samples and causes recorded since the last flush (bounded like the window). */
  freshSamples: [number, number][] = [];
  freshCauses: ConnectionCause[] = [];
  readonly causes = new RingBuffer<ConnectionCause>(MAX_CAUSES);
  lastCallAt?: number;
  private lastState?: ServerState['kind'];

  constructor(
    readonly serverId: string,
    capacity?: number,
    windowMs?: number,
  ) {
    this.latency = new LatencyWindow(capacity, windowMs);
  }

  /** One settled tool call. */
  call(outcome: CallOutcome, latencyMs: number, bytesOut: number, bytesIn: number, at: number): void {
    const c = this.counters;
    c.calls++;
    c[outcome]++;
    c.bytesOut += bytesOut;
    c.bytesIn += bytesIn;
    this.lastCallAt = at;
    if (outcome === 'timeouts' || outcome === 'cancellations') return;
    c.timedCalls++;
    c.latencyMicros += Math.round(latencyMs * 1000);
    this.latency.record(latencyMs, at);
    this.freshSamples.push([at, latencyMs]);
    // Nothing grows without bound, even with no file to flush to.
    if (this.freshSamples.length > this.latency.capacity * 2)
      this.freshSamples.splice(0, this.freshSamples.length - this.latency.capacity);
  }

  /** A connection state change: counts connects, reconnects, drops and failures, with their causes. */
  state(state: ServerState, at: number): void {
    const prev = this.lastState;
    this.lastState = state.kind;
    const c = this.counters;
    if (state.kind === 'connected') {
      if (prev === 'reconnecting') c.reconnects++;
      else if (prev !== 'connected') c.connects++;
      return;
    }
    if (state.kind !== 'reconnecting' && state.kind !== 'failed') return;
    // A failed state repeated without a new attempt (a config refresh) is not a new failure.
    if (state.kind === 'failed' && prev === 'failed') return;
    const error = state.kind === 'reconnecting' ? state.lastError : state.error;
    const dropped = prev === 'connected';
    if (dropped) c.drops++;
    else c.connectFailures++;
    this.addCause(dropped ? 'dropped' : 'failed', error, at);
  }

  /** Seed from a persisted entry (what earlier processes counted). */
  seed(
    counters: ServerCounters,
    samples: [number, number][],
    causes: ConnectionCause[],
    lastCallAt?: number,
  ): void {
    this.counters = { ...counters };
    this.mark = { ...counters };
    for (const [at, ms] of samples) this.latency.record(ms, at);
    for (const cause of causes) this.causes.push(cause);
    if (lastCallAt !== undefined) this.lastCallAt = lastCallAt;
  }

  /** The counters as the contract shows them. */
  snapshot(now: number): ServerMetrics {
    return {
      serverId: this.serverId,
      ...this.counters,
      latency: this.latency.summary(now),
      causes: this.causes.toArray(),
      ...(this.lastCallAt !== undefined ? { lastCallAt: this.lastCallAt } : {}),
    };
  }

  private addCause(kind: ConnectionCause['kind'], error: HostError, at: number): void {
    const message =
      error.message.length > MAX_CAUSE_MESSAGE
        ? `${error.message.slice(0, MAX_CAUSE_MESSAGE)}…`
        : error.message;
    const cause: ConnectionCause = { at, kind, code: String(error.code).slice(0, 100), message };
    this.causes.push(cause);
    this.freshCauses.push(cause);
    if (this.freshCauses.length > MAX_CAUSES) this.freshCauses.shift();
  }
}
