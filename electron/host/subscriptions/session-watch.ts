import type { ServerSummary } from '../../../shared/domain/server-state.js';

/** What a per-server service hears about sessions: a new one, the end of one, a server removed. */
export interface SessionListener {
  /** Server `id` connected; `session` tells this session from any earlier one. */
  connected(id: string, session: number): void;
  /** Server `id` is no longer connected (stopped, crashed, reconnecting, failed). */
  disconnected(id: string): void;
  /** Server `id` is no longer configured. */
  removed(id: string): void;
}

/**
 * Turns the full server lists of `servers.changed` into session changes: a session is a
 * `connected` state with its own `since`, so a reconnect shows as a new session even when no
 * other state was seen in between.
 */
export class SessionWatch {
  private readonly sessions = new Map<string, number | undefined>();

  constructor(private readonly listener: SessionListener) {}

  /** Feed one full server list. */
  update(list: readonly ServerSummary[]): void {
    const seen = new Set<string>();
    for (const s of list) {
      seen.add(s.id);
      const next = s.state.kind === 'connected' ? s.state.since : undefined;
      const known = this.sessions.has(s.id);
      const prev = this.sessions.get(s.id);
      this.sessions.set(s.id, next);
      if (known && prev === next) continue;
      if (prev !== undefined) this.listener.disconnected(s.id);
      if (next !== undefined) this.listener.connected(s.id, next);
    }
    for (const id of [...this.sessions.keys()]) {
      if (seen.has(id)) continue;
      this.sessions.delete(id);
      this.listener.removed(id);
    }
  }
}
