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
import { HostFailure } from '../util/errors.js';
import { ConnectDeadline, isTimeoutError, noResponse } from './connect-deadline.js';
import { closeOpened } from './close-session.js';
import { isAuthRequired } from './connection-auth.js';
import type { LaunchPlan } from './launch.js';
import { watchProbe, type LateVerdict, type ProbeWatch } from './probe-sibling.js';
import { RemoteInspector } from './remote-inspector.js';
import { fetchWithResetRetry } from './reset-retry.js';

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
  /** The verdict is inferred from a probe that only timed out (see EraCache.set). */
  tentative?: boolean;
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
  /** A stdio probe that timed out was answered afterwards (see probe-sibling.ts). */
  onLateVerdict?: (verdict: LateVerdict) => void;
  /** The stdio probe's cap (default STDIO_PROBE_MS). */
  stdioProbeMs?: number;
  /** A line for the server's log (a remote request sent again after a reset). */
  note?: (text: string) => void;
}

/**
 * Silence on a stdio probe means a 2025 server, but so does a server still starting on a busy
 * machine: a node server's start takes several seconds when many start at once on two cores,
 * and a 3 s cap then connected 2026-07-28 servers as 2025. A silent 2025 server (rare: most
 * answer an unknown request with an error at once) pays this once; its verdict is cached.
 * A probe that still times out is heard late and upgrades an unused session (server-connection.ts).
 */
const STDIO_PROBE_MS = 8000;
/** How long an abandoned connect may take to unwind (reap a probe sibling) before we move on. */
const UNWIND_MS = 1000;

/**
 * Open a connection following the plan: stdio; Streamable HTTP falling back to legacy SSE;
 * or SSE only. Era negotiation runs in `auto` mode unless a cached verdict is supplied.
 * One deadline bounds every step (`opts.timeout`, plus the probe's cap when there is no cached
 * verdict), and `opts.signal` cancels the attempt.
 */
export async function openClient(plan: LaunchPlan, opts: OpenOptions): Promise<OpenedClient> {
  // Over HTTP the SDK takes a probe timeout for a dead server (no legacy fallback), so a slow
  // one gets the whole timeout there; the stdio probe runs on a throwaway sibling, capped short.
  const probeCap =
    plan.kind === 'stdio' ? Math.min(opts.stdioProbeMs ?? STDIO_PROBE_MS, opts.timeout) : opts.timeout;
  const probeMs = opts.prior ? 0 : probeCap;
  const deadline = new ConnectDeadline(opts.timeout, opts.signal, probeMs);
  try {
    return plan.kind === 'stdio'
      ? await openStdio(plan, opts, deadline)
      : await openRemote(plan, opts, deadline);
  } finally {
    deadline.dispose();
  }
}

async function openStdio(
  plan: Extract<LaunchPlan, { kind: 'stdio' }>,
  opts: OpenOptions,
  deadline: ConnectDeadline,
): Promise<OpenedClient> {
  const transport = new StdioClientTransport({
    command: plan.command,
    args: plan.args,
    env: plan.env,
    ...(plan.cwd ? { cwd: plan.cwd } : {}),
    stderr: 'pipe',
  });
  const client = newClient(opts, deadline.probeMs || opts.timeout);
  opts.prepare(transport, client);
  const spawned = rememberPid(transport);
  const step = (last: string | undefined) =>
    last ? `waiting for the answer to ${last}` : opts.prior ? 'starting' : 'server/discover probe';
  // The sibling is cloned with this very env object: that is how its disposal finds the watch.
  const watch: ProbeWatch | undefined =
    deadline.probeMs > 0
      ? {
          began: performance.now(),
          capMs: deadline.probeMs,
          ...(opts.onLateVerdict ? { onLate: opts.onLateVerdict } : {}),
        }
      : undefined;
  const unwatch = watch ? watchProbe(plan.env, watch) : undefined;
  try {
    await attempt(client, transport, { prior: opts.prior }, deadline, step);
  } catch (error) {
    // A failed, timed-out or cancelled start (stop() during a connect) reaps the whole tree at once.
    await closeOpened({ client, pid: spawned.pid });
    throw error;
  } finally {
    unwatch?.();
  }
  // A stdio probe that timed out reads as "legacy" without any evidence but the handshake that
  // followed: cached as tentative (a day), unless the sibling's late answer says otherwise.
  const probeTimedOut = watch !== undefined && watch.answered !== true;
  const verdict = verdictOf(client, opts.prior);
  return {
    client,
    transport,
    pid: transport.pid ?? undefined,
    ...(verdict ? { verdict } : {}),
    ...(verdict?.kind === 'legacy' && probeTimedOut ? { tentative: true } : {}),
    transportKind: 'stdio',
  };
}

async function openRemote(
  plan: Extract<LaunchPlan, { kind: 'http' }>,
  opts: OpenOptions,
  deadline: ConnectDeadline,
): Promise<OpenedClient> {
  const retrying = fetchWithResetRetry(fetch, (method, reason) =>
    opts.note?.(`the connection was reset before any answer to ${method} (${reason}): sent it once more`),
  );
  const inspector = new RemoteInspector(deadline.signal, retrying);
  const step = (last: string | undefined) =>
    inspector.silenceNote() ?? (last ? `waiting for the answer to ${last}` : undefined);
  const requestInit: RequestInit = { headers: plan.headers };
  let silence: HostFailure | undefined;
  const auth = opts.authProvider ? { authProvider: opts.authProvider } : {};
  if (plan.transport !== 'sse') {
    const transport = new StreamableHTTPClientTransport(plan.url, {
      requestInit,
      fetch: inspector.fetch,
      ...auth,
    });
    const client = newClient(opts, deadline.probeMs || opts.timeout);
    opts.prepare(transport, client);
    try {
      await attempt(client, transport, { prior: opts.prior }, deadline, step);
      inspector.connecting = false;
      return { client, transport, verdict: verdictOf(client, opts.prior), transportKind: 'http' };
    } catch (error) {
      await client.close().catch(() => undefined);
      // What the server actually answered says more than the transport's symptom of it.
      if (inspector.diagnosis) throw inspector.diagnosis;
      if (plan.transport === 'streamable' || !shouldTrySse(error)) throw error;
      // A silent POST is the story even if the SSE fallback then fails some other way.
      if (isTimeoutError(error)) silence = noResponse(opts.timeout, step(undefined));
    }
  }
  // Legacy HTTP+SSE servers all predate 2026-07-28: connect with the plain handshake.
  const transport = new SSEClientTransport(plan.url, {
    requestInit,
    fetch: inspector.fetch,
    eventSourceInit: { fetch: headerFetch(plan.headers, inspector.fetch) },
    ...auth,
  });
  const client = new Client(CLIENT_INFO, { ...opts.clientOptions });
  opts.prepare(transport, client);
  const sseStep = (last: string | undefined) =>
    step(last) ?? 'waiting for the event stream to name its message endpoint';
  try {
    await attempt(client, transport, {}, deadline, sseStep);
    inspector.connecting = false;
  } catch (error) {
    await client.close().catch(() => undefined);
    throw inspector.diagnosis ?? (error instanceof HostFailure ? error : (silence ?? error));
  }
  return { client, transport, transportKind: 'sse' };
}

/**
 * One connect attempt under the deadline. Out of time, it closes client and transport both
 * (during the stdio probe the client holds no transport yet; closing the transport is what
 * stops the probe) and gives the attempt a moment to reap what it started.
 */
async function attempt(
  client: Client,
  transport: Transport,
  connectOpts: { prior?: PriorDiscovery },
  deadline: ConnectDeadline,
  step: (lastRequest: string | undefined) => string | undefined,
): Promise<void> {
  const watch = watchRequests(transport);
  const work = client.connect(transport, {
    ...connectOpts,
    timeout: deadline.remaining(),
    signal: deadline.signal,
  });
  try {
    await deadline.race(
      work,
      async () => {
        await Promise.all([client.close().catch(() => undefined), transport.close().catch(() => undefined)]);
        await settleWithin(work, UNWIND_MS);
      },
      () => step(watch.last()),
    );
  } finally {
    watch.stop();
  }
}

/** Remember the last request sent (what a timeout was waiting for); `stop` unhooks it. */
function watchRequests(transport: Transport): {
  last: () => string | undefined;
  stop: () => void;
} {
  let last: string | undefined;
  const own = Object.getOwnPropertyDescriptor(transport, 'send');
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if ('method' in message && 'id' in message) last = message.method;
    return send(message, options);
  };
  return {
    last: () => last,
    stop: () => {
      if (own) Object.defineProperty(transport, 'send', own);
      else Reflect.deleteProperty(transport, 'send');
    },
  };
}

async function settleWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    work.then(
      () => undefined,
      () => undefined,
    ),
    new Promise<void>((r) => {
      timer = setTimeout(r, ms);
    }),
  ]);
  clearTimeout(timer);
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

/** Auth walls, aborts and spent budgets are not a reason to try the old transport. */
function shouldTrySse(error: unknown): boolean {
  if (error instanceof HostFailure) return false;
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
function headerFetch(headers: Record<string, string>, base: typeof fetch): typeof fetch {
  return (input, init) => {
    const merged = new Headers(init?.headers);
    for (const [k, v] of Object.entries(headers)) merged.set(k, v);
    return base(input, { ...init, headers: merged });
  };
}
