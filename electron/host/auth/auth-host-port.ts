import type { ServerConfig } from '../../../shared/domain/server-config.js';
import type { ServerState } from '../../../shared/domain/server-state.js';

/**
 * The few things sign-in needs from the servers, and nothing else: AuthService depends on this
 * port rather than on the host, so auth/ does not import the host (McpHost implements it).
 */
export interface AuthHostPort {
  /** The server's (unmasked) config; undefined for an unknown server or a bad entry. */
  serverConfig(serverId: string): ServerConfig | undefined;
  /** The server's state as its summary shows it; undefined for an unknown server. */
  serverState(serverId: string): ServerState | undefined;
  /** Reconnect the server (with whatever provider the next connect is given). */
  restart(serverId: string): Promise<unknown>;
  /** Redeem the sign-in's redirect query on the server's connection, then reconnect. */
  finishAuth(serverId: string, params: URLSearchParams): Promise<void>;
  /** Show the server as signing in while the browser flow runs. */
  markAuthenticating(serverId: string): void;
  /** A summary changed outside the connections (sign-in started, ended): tell the UI. */
  announce(): void;
}
