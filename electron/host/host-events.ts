import type { EventChannel, EventOf } from '../../shared/ipc/contract.js';

type Listener<E extends EventChannel> = (payload: EventOf<E>) => void;

/** Typed fan-out of the contract's events to the bridges (IPC, WebSocket) and tests. */
export class HostEvents {
  private readonly listeners = new Map<EventChannel, Set<(payload: never) => void>>();

  on<E extends EventChannel>(event: E, listener: Listener<E>): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Subscribe to every event (bridges forward them all). */
  onAny(listener: <E extends EventChannel>(event: E, payload: EventOf<E>) => void): () => void {
    this.anyListeners.add(listener);
    return () => this.anyListeners.delete(listener);
  }

  emit<E extends EventChannel>(event: E, payload: EventOf<E>): void {
    for (const l of this.listeners.get(event) ?? []) safely(() => (l as Listener<E>)(payload));
    for (const l of this.anyListeners) safely(() => l(event, payload));
  }

  /** Whether anyone would receive this event (skips work nobody will see). */
  hasListeners(event: EventChannel): boolean {
    return this.anyListeners.size > 0 || (this.listeners.get(event)?.size ?? 0) > 0;
  }

  /** Listeners per channel and catch-all ones, for the host's diagnostics (a leak shows as growth). */
  listenerCounts(): { byChannel: Partial<Record<EventChannel, number>>; any: number } {
    const byChannel: Partial<Record<EventChannel, number>> = {};
    for (const [event, set] of this.listeners) if (set.size) byChannel[event] = set.size;
    return { byChannel, any: this.anyListeners.size };
  }

  private readonly anyListeners = new Set<<E extends EventChannel>(event: E, payload: EventOf<E>) => void>();
}

/** A listener that throws must not break delivery to the others, or the host. */
function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // Listener errors belong to the listener.
  }
}
