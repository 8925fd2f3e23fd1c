import { randomUUID } from 'node:crypto';
import type { ApprovalChoice, PendingRequest } from '../../../shared/domain/chat.js';
import type { HostEvents } from '../host-events.js';

/** How a pending request ended when nobody chose: it always ends. */
export type Settlement = ApprovalChoice | 'timeout' | 'cancelled';

type NewRequest = Omit<PendingRequest, 'id' | 'createdAt' | 'expiresAt'>;

interface Entry {
  request: PendingRequest;
  settle: (s: Settlement) => void;
  timer: NodeJS.Timeout;
}

/**
 * One queue for everything that waits on a person. Every request gets an id, a deadline
 * and a guaranteed settlement: the person's answer, or `timeout`, or `cancelled` when its
 * run stops, its server goes away or the host shuts down. The UI sees the whole queue on
 * every change.
 */
export class PendingBroker {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly events: HostEvents,
    private readonly defaultTimeoutMs = 10 * 60_000,
  ) {}

  /** Ask; resolves when the person answers or the request is settled otherwise. */
  ask(request: NewRequest, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<Settlement> {
    const id = randomUUID();
    const now = Date.now();
    const timeoutMs = opts.timeoutMs ?? this.defaultTimeoutMs;
    const full = { ...request, id, createdAt: now, expiresAt: now + timeoutMs } as PendingRequest;
    return new Promise<Settlement>((resolve) => {
      if (opts.signal?.aborted) return resolve('cancelled');
      const settle = (s: Settlement) => {
        const e = this.entries.get(id);
        if (!e) return;
        clearTimeout(e.timer);
        this.entries.delete(id);
        opts.signal?.removeEventListener('abort', onAbort);
        this.emit();
        resolve(s);
      };
      const onAbort = () => settle('cancelled');
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      this.entries.set(id, { request: full, settle, timer: setTimeout(() => settle('timeout'), timeoutMs) });
      this.emit();
    });
  }

  list(): PendingRequest[] {
    return [...this.entries.values()].map((e) => e.request);
  }

  /** The person's answer. False when the request is already gone. */
  respond(id: string, choice: ApprovalChoice): boolean {
    const e = this.entries.get(id);
    if (!e) return false;
    e.settle(choice);
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

  dispose(): void {
    this.cancelWhere(() => true);
  }

  private emit(): void {
    this.events.emit('pending.changed', this.list());
  }
}
