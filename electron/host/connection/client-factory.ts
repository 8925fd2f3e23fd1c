import {
  AuthorizationServerMismatchError,
  Client,
  IssuerMismatchError,
  OAuthError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type AuthProvider,
  type ClientOptions,
  type OAuthClientProvider,
  type PriorDiscovery,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { closeOpened } from './close-session.js';
import { isAuthRequired } from './connection-auth.js';
import type { LaunchPlan } from './launch.js';
import { killSnapshot, snapshotTree } from './process-tree.js';

/** Identity we present to servers. */
export const CLIENT_INFO = { name: 'mcp-desk', title: 'MCP Desk', version: '0.1.0' };

/** A connected client and how to reach its process, if it has one. */
export interface OpenedClient {
  client: Client;
  transport: Transport;
  /** The child process id for stdio servers. */
  pid?: number;
  /** The verdict to cache when this connect had to probe. */
  verdict?: PriorDiscovery;
  transportKind: 'stdio' | 'http' | 'sse';
}

export interface OpenOptions {
  clientOptions: Omit<ClientOptions, 'versionNegotiation'>;
  /** Cached era verdict; absent means probe. */
  prior?: PriorDiscovery;
  timeout: number;
  signal?: AbortSignal;
  /** Attach observers (trace, stderr) before any byte moves. */
  prepare: (transport: Transport, client: Client) => void;
  /** OAuth (or another bearer source) for remote servers; the SDK runs the flow with it. */
  authProvider?: AuthProvider | OAuthClientProvider;
}

/** What installSdkProbePatch found: the SDK shape it relies on, or that the shape changed. */
export type ProbePatchResult = 'installed' | 'already-installed' | 'sdk-shape-changed';

/**
 * The stdio era probe runs on a throwaway sibling process that the SDK reaps with its
 * internal `_dispose`, which signals only the direct child: a wrapper's children (npx ->
 * node, a server's helper) would be orphaned on every first connect. Reap the whole tree
 * instead. `_dispose` stays an own method of the prototype, which the SDK checks before
 * choosing the sibling probe. Called once at start-up by the composition root (never at
 * import, so loading this module changes nothing); idempotent. If a later SDK drops the
 * method this is a no-op and says so: tests/unit/sdk-probe-patch.test.ts fails on that.
 */
export function installSdkProbePatch(): ProbePatchResult {
  const proto = StdioClientTransport.prototype as unknown as {
    _dispose?: (this: StdioClientTransport) => Promise<void>;
  };
  const original = proto._dispose;
  if (typeof original !== 'function' || !Object.prototype.hasOwnProperty.call(proto, '_dispose'))
    return 'sdk-shape-changed';
  if (reaping.has(original)) return 'already-installed';
  const patched = async function (this: StdioClientTransport): Promise<void> {
    const pid = this.pid;
    const tree = pid ? await snapshotTree(pid).catch(() => undefined) : undefined;
    // Tree first (taskkill /T needs the root alive on Windows), then the SDK's own cleanup.
    if (tree) await killSnapshot(tree).catch(() => undefined);
    await original.call(this);
  };
  reaping.add(patched);
  proto._dispose = patched;
  return 'installed';
}
const reaping = new WeakSet<object>();

/** Silence on a stdio probe means a 2025 server; don't make the person wait long for it. */
const STDIO_PROBE_MS = 3000;

/**
 * Open a connection following the plan: stdio; Streamable HTTP falling back to legacy SSE;
 * or SSE only. Era negotiation runs in `auto` mode unless a cached verdict is supplied.
 */
export async function openClient(plan: LaunchPlan, opts: OpenOptions): Promise<OpenedClient> {
  if (plan.kind === 'stdio') {
    const transport = new StdioClientTransport({
      command: plan.command,
      args: plan.args,
      env: plan.env,
      ...(plan.cwd ? { cwd: plan.cwd } : {}),
      stderr: 'pipe',
    });
    const client = newClient(opts, Math.min(STDIO_PROBE_MS, opts.timeout));
    opts.prepare(transport, client);
    const spawned = rememberPid(transport);
    try {
      await client.connect(transport, { prior: opts.prior, timeout: opts.timeout, signal: opts.signal });
    } catch (error) {
      // A failed or cancelled start (stop() during a connect) reaps the whole tree at once.
      await closeOpened({ client, pid: spawned.pid });
      throw error;
    }
    return {
      client,
      transport,
      pid: transport.pid ?? undefined,
      verdict: verdictOf(client, opts.prior),
      transportKind: 'stdio',
    };
  }

  const requestInit: RequestInit = { headers: plan.headers };
  if (plan.transport !== 'sse') {
    const transport = new StreamableHTTPClientTransport(plan.url, {
      requestInit,
      ...(opts.authProvider ? { authProvider: opts.authProvider } : {}),
    });
    const client = newClient(opts, opts.timeout);
    opts.prepare(transport, client);
    try {
      await client.connect(transport, { prior: opts.prior, timeout: opts.timeout, signal: opts.signal });
      return { client, transport, verdict: verdictOf(client, opts.prior), transportKind: 'http' };
    } catch (error) {
      await client.close().catch(() => undefined);
      if (plan.transport === 'streamable' || !shouldTrySse(error)) throw error;
    }
  }
  // Legacy HTTP+SSE servers all predate 2026-07-28: connect with the plain handshake.
  const transport = new SSEClientTransport(plan.url, {
    requestInit,
    eventSourceInit: { fetch: headerFetch(plan.headers) },
    ...(opts.authProvider ? { authProvider: opts.authProvider } : {}),
  });
  const client = new Client(CLIENT_INFO, { ...opts.clientOptions });
  opts.prepare(transport, client);
  try {
    await client.connect(transport, { timeout: opts.timeout, signal: opts.signal });
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  return { client, transport, transportKind: 'sse' };
}

/**
 * The pid of the process a stdio transport starts, kept past its close: when a handshake
 * fails or is aborted, the SDK closes the transport itself (forgetting the pid) and only
 * signals the direct child after 2 s; we need the pid to kill the whole tree now.
 */
function rememberPid(transport: StdioClientTransport): { pid?: number } {
  const spawned: { pid?: number } = {};
  const start = transport.start.bind(transport);
  transport.start = async () => {
    try {
      await start();
    } finally {
      spawned.pid = transport.pid ?? undefined;
    }
  };
  return spawned;
}

function newClient(opts: OpenOptions, probeMs: number): Client {
  return new Client(CLIENT_INFO, {
    ...opts.clientOptions,
    versionNegotiation: { mode: 'auto', probe: { timeoutMs: probeMs, maxRetries: 0 } },
  });
}

/** The verdict to remember, only when this connect actually probed. */
function verdictOf(client: Client, prior: PriorDiscovery | undefined): PriorDiscovery | undefined {
  if (prior) return undefined;
  const discover = client.getDiscoverResult();
  return discover ? { kind: 'modern', discover } : { kind: 'legacy' };
}

/**
 * An OAuth failure (a mismatched issuer, a refused registration, an AS error) says nothing
 * about the transport: the SSE fallback would only hide the real reason behind a 404.
 */
function isOAuthFailure(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; depth < 6 && typeof e === 'object' && e !== null; depth++) {
    if (
      e instanceof OAuthError ||
      IssuerMismatchError.isInstance(e) ||
      AuthorizationServerMismatchError.isInstance(e)
    )
      return true;
    e = (e as { cause?: unknown }).cause ?? (e as { data?: { cause?: unknown } }).data?.cause;
  }
  return false;
}

/** Auth walls and aborts are not a reason to try the old transport. */
function shouldTrySse(error: unknown): boolean {
  const status = (error as { status?: unknown }).status;
  if (status === 401 || status === 403 || isAuthRequired(error) || isOAuthFailure(error)) return false;
  if (error instanceof Error && error.name === 'AbortError') return false;
  // Nothing listening, or no such host: the SSE transport would fail the same way.
  for (let e: unknown = error, depth = 0; depth < 6 && typeof e === 'object' && e !== null; depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH') return false;
    e = (e as { cause?: unknown }).cause ?? (e as { data?: { cause?: unknown } }).data?.cause;
  }
  return true;
}

/** The SSE GET stream needs the same custom headers as the POSTs. */
function headerFetch(headers: Record<string, string>): typeof fetch {
  return (input, init) => {
    const merged = new Headers(init?.headers);
    for (const [k, v] of Object.entries(headers)) merged.set(k, v);
    return fetch(input, { ...init, headers: merged });
  };
}
