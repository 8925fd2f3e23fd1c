import type { HostError } from '../ipc/host-error.js';
import type { ServerInfo } from './mcp-types.js';
import type { ServerConfig } from './server-config.js';

/** The error protocol lives in shared/ipc/host-error.ts; re-exported for the states below. */
export type { HostError } from '../ipc/host-error.js';

/** The connection state machine of one server (see electron/host/connection). */
export type ServerState =
  | { kind: 'disabled' }
  | { kind: 'connecting'; attempt: number }
  | { kind: 'connected'; info: ServerInfo; since: number }
  | { kind: 'reconnecting'; attempt: number; retryAt: number; lastError: HostError }
  | { kind: 'failed'; error: HostError }
  /** The server wants a sign-in (OAuth) that has not happened, expired or needs more scope. */
  | { kind: 'auth-required'; message: string }
  /** A sign-in is under way in the system browser; it can be cancelled. */
  | { kind: 'authenticating'; since: number };

/**
 * Whether a stdio server runs in an OS sandbox. `paths` counts the shared folders (roots)
 * the sandbox exposes read-write; `unavailable` means sandboxing was asked for but this
 * machine cannot provide it, so the server is not started at all.
 */
export type SandboxState =
  | { kind: 'off' }
  | { kind: 'on'; tool: 'bubblewrap' | 'sandbox-exec'; paths: number; network?: 'none' | 'allow' }
  | { kind: 'unavailable'; reason: string };

/** One place a sandboxed server tried to reach through its network proxy, and the verdict. */
export interface NetworkDestination {
  host: string;
  port: number;
  allowed: boolean;
  /** How many times it was tried. */
  count: number;
  /** When it was last tried (epoch ms). */
  lastAt: number;
}

/** A sandboxed server's network rule and what it tried under it (newest first, capped). */
export interface NetworkActivity {
  rule: 'none' | 'allow';
  /** The allowed hosts (rule `allow`). */
  hosts: string[];
  destinations: NetworkDestination[];
}

/**
 * Where a remote server's OAuth sign-in stands, shown beside the connection state (a
 * server can be connected and signed in). `none`: the server never asked for a sign-in.
 */
export type ServerAuth =
  | { kind: 'none' }
  | { kind: 'sign-in-needed' }
  | { kind: 'signing-in'; since: number }
  | { kind: 'signed-in' }
  | { kind: 'failed'; reason: string };

/** One configured server as the UI sees it. Secret-looking values are masked. */
export interface ServerSummary {
  id: string;
  /** The entry as configured (masked), or null when the entry itself is invalid. */
  config: ServerConfig | null;
  /** The raw JSON of an invalid entry, so a person can fix it in place. */
  invalidEntry?: unknown;
  state: ServerState;
  transport: 'stdio' | 'http' | 'sse' | 'unknown';
  /** The OS sandbox of a stdio server; absent for remote servers and invalid entries. */
  sandbox?: SandboxState;
  /** A sandboxed server's network rule and the destinations it tried (rules other than `any`). */
  network?: NetworkActivity;
  /** OAuth sign-in of a remote server; absent for stdio servers and invalid entries. */
  auth?: ServerAuth;
  counts: { tools: number; resources: number; templates: number; prompts: number };
}

/** One line of a server's stderr (stdio) or host-side log. */
export interface LogLine {
  seq: number;
  at: number;
  stream: 'stderr' | 'host' | 'server-log';
  text: string;
}

/** One JSON-RPC message in or out, secrets redacted. */
export interface TraceEntry {
  seq: number;
  at: number;
  direction: 'out' | 'in';
  /** Method for requests/notifications; undefined for responses. */
  method?: string;
  id?: string | number;
  /** The message as JSON text, redacted, truncated past a size limit. */
  json: string;
}

/** Placeholder the UI shows for a masked value; sending it back keeps the stored value. */
export const MASKED_VALUE = '••••••••';
