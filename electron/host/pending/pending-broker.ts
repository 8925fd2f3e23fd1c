import { randomUUID } from 'node:crypto';
import { approvalChoices } from '../../../shared/domain/approval-choices.js';
import type { ApprovalChoice } from '../../../shared/domain/chat.js';
import type { PendingRequest, PendingResponse } from '../../../shared/domain/pending.js';
import type { AuditLog } from '../audit/audit-log.js';
import { auditRaised, auditSettled } from '../audit/pending-audit.js';
import type { HostEvents } from '../host-events.js';
import { HostFailure } from '../util/errors.js';

/** Why a signal aborted, when the host said so in words (a HostFailure); else undefined. */
export function abortReason(signal: AbortSignal): string | undefined {
  return signal.aborted && signal.reason instanceof HostFailure ? signal.reason.message : undefined;
}

/** How a pending request ended when nobody answered: it always ends. */
export type Unanswered = 'timeout' | 'cancelled';

type Kind = PendingRequest['kind'];
type RequestOfKind<K extends Kind> = Extract<PendingRequest, { kind: K }>;
type ResponseOfKind<K extends Kind> = Extract<PendingResponse, { kind: K }>;
/** A request as its asker writes it: the broker adds id and timestamps. */
export type NewRequest<K extends Kind> = Omit<RequestOfKind<K>, 'id' | 'createdAt' | 'expiresAt'>;

/** How a tool approval ended. */
export type Settlement = ApprovalChoice | Unanswered;

/** A server request in flight (see `PendingBroker.hold`). */
export interface ServerHold {
  /** Aborts when the caller's signal does, or when the server goes away. */
  readonly signal: AbortSignal;
  /** The request is over: stop tracking it. */
  release(): void;
}

/** What the broker is waiting on (see `PendingBroker.counts`). */
export interface PendingCounts {
  /** Requests waiting on a person; each has its own deadline timer. */
  queued: number;
  /** Server requests busy elsewhere (a sampling request with the model). */
  held: number;
  /** Queued plus held, per server. */
  byServer: Record<string, number>;
}

interface Entry {
  request: PendingRequest;
  settle: (s: PendingResponse | Unanswered) => void;
  timer: NodeJS.Timeout;
}

/**
 * One queue for everything that waits on a person: tool approvals, sampling reviews,
 * elicitation forms. Every request gets an id, a deadline and a guaranteed settlement: the
 * person's answer, or `timeout`, or `cancelled` when its run stops, its server goes away
 * or the host shuts down. The UI sees the whole queue on every change.
 *
 * It is also the one place that knows what each server is waiting on: queued items name their
 * server, and a server request that is busy elsewhere (a sampling request with the model) is
 * `hold`-ed here, so `cancelServer` settles all of it at once when the server goes away.
 */
export class PendingBroker {
  private readonly entries = new Map<string, Entry>();
  private readonly holds = new Map<string, Set<AbortController>>();

  constructor(
    private readonly events: HostEvents,
    private readonly defaultTimeoutMs = 10 * 60_000,
    /** Where raised and settled requests are recorded (absent: not recorded). */
    private readonly options: { audit?: AuditLog } = {},
  ) {}

  /** Ask; resolves with the person's answer of the same kind, or how it went unanswered. */
  request<K extends Kind>(
    request: NewRequest<K>,
    opts: { timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<ResponseOfKind<K> | Unanswered> {
    const id = randomUUID();
    const now = Date.now();
    const timeoutMs = opts.timeoutMs ?? this.defaultTimeoutMs;
    const full = { ...request, id, createdAt: now, expiresAt: now + timeoutMs } as unknown as PendingRequest;
    return new Promise((resolve) => {
      if (opts.signal?.aborted) return resolve('cancelled');
      const settle = (s: PendingResponse | Unanswered, why?: string) => {
        const e = this.entries.get(id);
        if (!e) return;
        clearTimeout(e.timer);
        this.entries.delete(id);
        opts.signal?.removeEventListener('abort', onAbort);
        auditSettled(this.options.audit, e.request, s, why);
        this.emit();
        resolve(s as ResponseOfKind<K> | Unanswered);
      };
      const onAbort = () => settle('cancelled', opts.signal && abortReason(opts.signal));
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      this.entries.set(id, { request: full, settle, timer: setTimeout(() => settle('timeout'), timeoutMs) });
      auditRaised(this.options.audit, full);
      this.emit();
    });
  }

  /** A tool approval: the person's choice, or how it went unanswered. */
  async ask(
    request: NewRequest<'tool-approval'>,
    opts: { timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<Settlement> {
    const r = await this.request(request, opts);
    return typeof r === 'string' ? r : r.choice;
  }

  /** How much is waiting, for the host's diagnostics: queued items (each owns one timer) and held server requests. */
  counts(): PendingCounts {
    const byServer: Record<string, number> = {};
    for (const e of this.entries.values())
      byServer[e.request.serverId] = (byServer[e.request.serverId] ?? 0) + 1;
    let held = 0;
    for (const [id, set] of this.holds) {
      held += set.size;
      byServer[id] = (byServer[id] ?? 0) + set.size;
    }
    return { queued: this.entries.size, held, byServer };
  }

  list(): PendingRequest[] {
    return [...this.entries.values()].map((e) => e.request);
  }

  /**
   * The person's answer. False when the request is gone or the answer is for another kind; a
   * tool approval's choice its card does not offer (approval-choices.ts) is refused outright.
   */
  respond(id: string, response: PendingResponse): boolean {
    const e = this.entries.get(id);
    if (!e || e.request.kind !== response.kind) return false;
    if (response.kind === 'tool-approval' && e.request.kind === 'tool-approval') {
      const offered = approvalChoices(e.request);
      if (!offered.includes(response.choice))
        throw new HostFailure(
          'invalid_request',
          `"${response.choice}" is not an answer this approval offers (it offers: ${offered.join(', ')}).`,
        );
    }
    e.settle(response);
    return true;
  }

  /** Cancel every request matching the filter (a stopped run, a removed server, shutdown). */
  cancelWhere(match: (r: PendingRequest) => boolean): number {
    let n = 0;
    for (const e of [...this.entries.values()]) {
      if (match(e.request)) {
        e.settle('cancelled');
        n++;
      }
    }
    return n;
  }

  /** Track a server's request until `release`, so `cancelServer` can abort it wherever it is. */
  hold(serverId: string, signal?: AbortSignal): ServerHold {
    const controller = new AbortController();
    // The reason travels on, so whoever settles the request can tell the server why.
    const onAbort = () => controller.abort(signal?.reason);
    if (signal?.aborted) controller.abort(signal.reason);
    else signal?.addEventListener('abort', onAbort, { once: true });
    let set = this.holds.get(serverId);
    if (!set) this.holds.set(serverId, (set = new Set()));
    set.add(controller);
    return {
      signal: controller.signal,
      release: () => {
        signal?.removeEventListener('abort', onAbort);
        const live = this.holds.get(serverId);
        live?.delete(controller);
        if (live?.size === 0) this.holds.delete(serverId);
      },
    };
  }

  /** Cancel everything a server is waiting on: its held requests and every queued item naming it. */
  cancelServer(serverId: string): void {
    for (const c of this.holds.get(serverId) ?? []) c.abort();
    this.cancelWhere((r) => r.serverId === serverId);
  }

  /** Servers with a request held or queued. */
  waitingServers(): string[] {
    const ids = new Set(this.holds.keys());
    for (const e of this.entries.values()) ids.add(e.request.serverId);
    return [...ids];
  }

  /** Settle everything of servers not in `connected` (they stopped, disconnected or were removed). */
  cancelServersExcept(connected: ReadonlySet<string>): void {
    for (const id of this.waitingServers()) if (!connected.has(id)) this.cancelServer(id);
  }

  dispose(): void {
    for (const id of [...this.holds.keys()]) this.cancelServer(id);
    this.cancelWhere(() => true);
  }

  private emit(): void {
    this.events.emit('pending.changed', this.list());
  }
}
