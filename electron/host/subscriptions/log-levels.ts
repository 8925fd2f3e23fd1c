import type { ServerState } from '../../../shared/domain/server-state.js';
import type { LogLevel, LogLevelState } from '../../../shared/ipc/contract.js';
import type { SessionRequests } from '../connection/session-requests.js';
import type { HostEvents } from '../host-events.js';
import type { Disposable } from '../util/disposable.js';
import { HostFailure } from '../util/errors.js';
import type { LogLevelStore } from './log-level-store.js';
import { SessionWatch, type SessionListener } from './session-watch.js';

/** What the log levels need of the host. */
export interface LogLevelDeps {
  session: (serverId: string) => SessionRequests;
  state: (serverId: string) => ServerState | undefined;
  events: HostEvents;
  store: LogLevelStore;
}

const MODERN =
  'This server speaks MCP 2026-07-28, which has no logging/setLevel: a client picks the level per request there.';
const NO_LOGGING = 'This server does not send log messages (it declares no logging).';
const NOT_CONNECTED = 'Connect the server to change its log level.';

/**
 * Per-server log level (2025 logging/setLevel), remembered and sent again at the start of every
 * session, since a server forgets it with the connection. 2026-07-28 removed the request; the
 * state says so instead of failing.
 */
export class LogLevels implements Disposable, SessionListener {
  private readonly watch = new SessionWatch(this);
  private readonly off: () => void;

  constructor(private readonly deps: LogLevelDeps) {
    this.off = deps.events.on('servers.changed', (list) => this.watch.update(list));
  }

  /** The chosen level and whether it can be changed now. */
  get(serverId: string): LogLevelState {
    const level = this.deps.store.get(this.known(serverId)) ?? null;
    const why = this.unavailable(serverId);
    return why ? { level, available: false, reason: why } : { level, available: true };
  }

  /** Send logging/setLevel now and remember it for later sessions. */
  async set(serverId: string, level: LogLevel): Promise<LogLevelState> {
    const why = this.unavailable(this.known(serverId));
    if (why) throw new HostFailure('unavailable', why);
    await this.deps.session(serverId).setLogLevel(level);
    await this.deps.store.set(serverId, level);
    return this.get(serverId);
  }

  /** A removed server's level must not apply to a later server of the same name. */
  forget(serverId: string): Promise<void> {
    return this.deps.store.set(serverId, undefined);
  }

  connected(id: string): void {
    const level = this.deps.store.get(id);
    if (!level || this.unavailable(id)) return;
    // A refusal leaves the server at its default; the trace shows the request and its answer.
    void this.deps
      .session(id)
      .setLogLevel(level)
      .catch(() => undefined);
  }

  disconnected(): void {
    // The level stays chosen; the next session gets it.
  }

  removed(): void {
    // Forgotten through forget(), which the router calls when a person removes the server.
  }

  dispose(): Promise<void> {
    this.off();
    return this.deps.store.flush();
  }

  private known(serverId: string): string {
    if (!this.deps.state(serverId)) throw new HostFailure('unknown_server', `no server named "${serverId}"`);
    return serverId;
  }

  private unavailable(serverId: string): string | undefined {
    if (this.deps.state(serverId)?.kind !== 'connected') return NOT_CONNECTED;
    const { era, capabilities } = this.deps.session(serverId).describe();
    if (!capabilities.logging) return NO_LOGGING;
    if (era === 'modern') return MODERN;
    return undefined;
  }
}
