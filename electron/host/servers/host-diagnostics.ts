import type { Client } from '@modelcontextprotocol/client';
import type { ServerState } from '../../../shared/domain/server-state.js';
import type { EventChannel } from '../../../shared/ipc/contract.js';
import { isAlive, listDescendants } from '../connection/process-tree.js';
import type { RestartState } from '../connection/restart-policy.js';
import type { HostEvents } from '../host-events.js';
import type { PendingCounts } from '../pending/pending-broker.js';

/** What one SDK client still holds for requests it sent or is serving (see {@link sdkInFlight}). */
export interface SdkInFlight {
  /** Requests sent and not yet answered. */
  requests: number;
  /** Their timeout timers. */
  timeouts: number;
  /** Progress callbacks still registered. */
  progress: number;
  /** Server-to-client requests the client is still answering. */
  serving: number;
}

/** One server as the diagnostics see it. */
export interface ServerDiagnostics {
  state: ServerState['kind'];
  /** Tool calls in flight through the host. */
  calls: number;
  /** The live stdio process, if any. */
  pid?: number;
  /** Undefined between sessions, or when the SDK's internals changed shape (see sdkInFlight). */
  sdk?: SdkInFlight;
  /** Crashes, failed attempts and the recent reconnect causes. */
  restarts: RestartState;
}

/** A read-only snapshot of everything the host holds that should drain back to zero when idle. */
export interface HostDiagnosticsSnapshot {
  servers: Record<string, ServerDiagnostics>;
  /** Tool calls in flight through the host, all servers. */
  calls: number;
  /** SDK requests outstanding, all servers. */
  sdkRequests: number;
  pending: PendingCounts;
  listeners: { byChannel: Partial<Record<EventChannel, number>>; any: number; total: number };
  /** Reconnects waiting on a backoff timer, and every live timer of this process. */
  timers: { retries: number; active: number };
  /** Live server pids, and every live process descending from this one. */
  processes: { servers: number[]; descendants: number[] };
}

/** The pieces of the host the diagnostics read; each is a lookup so nothing is copied. */
export interface DiagnosticsSources {
  connections: () => Iterable<
    [
      serverId: string,
      connection: {
        state: ServerState;
        probe: { session?: { client: Client; pid?: number | undefined }; restarts: RestartState };
      },
    ]
  >;
  events: HostEvents;
  /** The pending broker's counts (absent: nothing is brokered in this host). */
  pending?: () => PendingCounts;
}

const NO_PENDING: PendingCounts = { queued: 0, held: 0, byServer: {} };

/**
 * Counters a test (or a person chasing a leak) can read to see that everything the host
 * starts also ends: calls, SDK request bookkeeping, brokered requests, event listeners,
 * timers and child processes. It only counts; it changes nothing. Tool calls are counted as
 * they pass through `track`, which is the one piece on the hot path: a map increment.
 */
export class HostDiagnostics {
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly sources: DiagnosticsSources) {}

  /** Count a tool call while it runs. */
  async track<T>(serverId: string, run: () => Promise<T>): Promise<T> {
    this.inFlight.set(serverId, (this.inFlight.get(serverId) ?? 0) + 1);
    try {
      return await run();
    } finally {
      const left = (this.inFlight.get(serverId) ?? 1) - 1;
      if (left > 0) this.inFlight.set(serverId, left);
      else this.inFlight.delete(serverId);
    }
  }

  /** The counters now (the process table is read, hence async). */
  async snapshot(): Promise<HostDiagnosticsSnapshot> {
    const servers: Record<string, ServerDiagnostics> = {};
    let sdkRequests = 0;
    let retries = 0;
    const pids: number[] = [];
    for (const [id, connection] of this.sources.connections()) {
      const { session, restarts } = connection.probe;
      const sdk = session ? sdkInFlight(session.client) : undefined;
      sdkRequests += sdk?.requests ?? 0;
      if (connection.state.kind === 'reconnecting') retries++;
      const pid = session?.pid;
      if (pid && isAlive(pid)) pids.push(pid);
      servers[id] = {
        state: connection.state.kind,
        calls: this.inFlight.get(id) ?? 0,
        ...(pid ? { pid } : {}),
        ...(sdk ? { sdk } : {}),
        restarts,
      };
    }
    let calls = 0;
    for (const n of this.inFlight.values()) calls += n;
    const listeners = this.sources.events.listenerCounts();
    let total = listeners.any;
    for (const n of Object.values(listeners.byChannel)) total += n ?? 0;
    return {
      servers,
      calls,
      sdkRequests,
      pending: this.sources.pending?.() ?? NO_PENDING,
      listeners: { ...listeners, total },
      timers: { retries, active: activeTimers() },
      processes: { servers: pids, descendants: await listDescendants(process.pid).catch(() => []) },
    };
  }
}

/** True when nothing is in flight anywhere: no calls, no SDK requests, nothing brokered. */
export function isQuiet(d: HostDiagnosticsSnapshot): boolean {
  return d.calls === 0 && d.sdkRequests === 0 && d.pending.queued === 0 && d.pending.held === 0;
}

interface ProtocolInternals {
  _responseHandlers?: unknown;
  _timeoutInfo?: unknown;
  _progressHandlers?: unknown;
  _requestHandlerAbortControllers?: unknown;
}

/**
 * The SDK keeps its per-request bookkeeping in private maps that nothing public exposes; a
 * leak there (a timeout never cleared, a progress handler never removed) is exactly what the
 * chaos tests look for, so read their sizes. Undefined if a later SDK renamed them:
 * tests/unit/host-diagnostics.test.ts fails on that instead of the counters reading zero.
 */
export function sdkInFlight(client: Client): SdkInFlight | undefined {
  const p = client as unknown as ProtocolInternals;
  const sizes = [p._responseHandlers, p._timeoutInfo, p._progressHandlers, p._requestHandlerAbortControllers];
  if (!sizes.every((m) => m instanceof Map)) return undefined;
  const [requests, timeouts, progress, serving] = sizes.map((m) => (m as Map<unknown, unknown>).size);
  return { requests, timeouts, progress, serving };
}

/** Live timers of the whole process (Node's own view; it includes timers the host did not create). */
function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
}
