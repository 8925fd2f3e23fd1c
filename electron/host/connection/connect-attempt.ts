import type { AuthProvider, OAuthClientProvider } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/domain/server-config.js';
import type { SandboxState, ServerState } from '../../../shared/domain/server-state.js';
import type { Tool } from '../../../shared/domain/mcp-types.js';
import type { ServerLists } from '../catalog/server-catalog.js';
import { toHostError } from '../util/errors.js';
import type { Redactor } from '../util/redact.js';
import type { OpenedClient } from './client-factory.js';
import type { ServerRequestHandlers } from './client-session.js';
import { isAuthRequired } from './connection-auth.js';
import { ListBudget } from './connect-deadline.js';
import { listChangedOptions } from './connection-lists.js';
import { planConnect, type AuthProviderLookup, type EraVerdict, type PlanContext } from './connect-plan.js';
import { openSession } from './connect-session.js';
import type { EraCache } from './era-cache.js';
import type { LaunchContext } from './launch.js';
import type { BackoffOptions } from './restart-policy.js';
import type { NetworkGate } from './sandbox/network-gate.js';
import type { SandboxDetector } from './sandbox/sandbox-detector.js';
import type { ServerOutput } from './server-output.js';
import type { SessionOpener } from './session-opener.js';
import type { LateVerdict } from './probe-sibling.js';

export interface ConnectionDeps {
  launch: LaunchContext;
  eraCache: EraCache;
  output: ServerOutput;
  handlers: ServerRequestHandlers;
  onState: (state: ServerState) => void;
  onLists: () => void;
  /** A tools/list succeeded: the whole list (before filters) and its config, before onLists (tool-trust/). */
  onToolsListed?: (tools: readonly Tool[], config: ServerConfig) => void;
  /** Reconnect policy; tests shorten it. */
  backoff?: BackoffOptions;
  /** How long a stdio era probe may stay silent before the 2025 handshake is tried (client-factory.ts). */
  stdioProbeMs?: number;
  /** Whether an OS sandbox is available (the system's by default). */
  sandbox?: SandboxDetector;
  /**
   * The OAuth provider (or other bearer source) for a remote server, looked up on every
   * connect; undefined connects without one (a 401 then means "sign-in needed").
   */
  authProviderFor?: AuthProviderLookup;
  /** A timeout for this run that wins over the config's (the CLI's --timeout). */
  timeoutOverride?: number;
  /** A sandboxed server's network proxy saw a new destination (the summary shows them). */
  onNetwork?: () => void;
}

/** Loads a session's lists; `onError` hears each list that failed. */
export type ListLoader = (
  client: OpenedClient['client'],
  stale: () => boolean,
  onError?: (error: unknown, what: string) => void,
) => Promise<ServerLists>;

/** What one connect attempt is given by its connection, and what it tells it back. */
export interface AttemptContext {
  id: string;
  config: ServerConfig;
  deps: ConnectionDeps;
  timeout: number;
  sandboxDetector: SandboxDetector;
  opener: SessionOpener;
  era: EraVerdict;
  /** The connection's network gate (an allowlist's proxy). */
  network?: NetworkGate;
  /** A dry run's sandbox (dry-run/). */
  dryRun?: PlanContext['dryRun'];
  /** True once a stop or a newer attempt made this one moot. */
  stale: () => boolean;
  loadLists: ListLoader;
  /** A server announced a list change: read the lists again. */
  onListChanged: () => void;
  /** The plan is made: what it launches and how it signs in. */
  onPlanned: (plan: {
    sandbox?: SandboxState;
    visible?: string[];
    authProvider?: AuthProvider | OAuthClientProvider;
    serverUrl?: URL;
  }) => void;
  /** The session is open: from now on a teardown must close it. */
  onOpened: (opened: OpenedClient) => void;
  /**
   * A timed-out era probe was answered late by a 2026-07-28 server while this session speaks
   * 2025: reconnect in the new era if nothing was sent on it yet. Returns whether it will.
   */
  upgradeToModern?: () => boolean;
}

/** A probe that had timed out was answered after all: remember what it said, for the next start. */
function lateVerdict(deps: ConnectionDeps, key: string, verdict: LateVerdict, upgrade?: () => boolean): void {
  if (verdict === 'reprobe') {
    deps.eraCache.delete(key);
    deps.output.note(
      'the era probe was answered late in a way that needs a new probe: the next start probes again',
    );
    return;
  }
  deps.eraCache.set(key, verdict);
  if (verdict.kind === 'modern' && upgrade?.()) {
    deps.output.note(
      'the era probe was answered late: this server speaks 2026-07-28; reconnecting to use it (nothing had been sent to it yet)',
    );
    return;
  }
  deps.output.note(
    verdict.kind === 'modern'
      ? 'the era probe was answered late: this server speaks 2026-07-28, which the next start uses'
      : 'the era probe was answered late: this is a 2025 server; the next start skips the probe',
  );
}

/**
 * One connect attempt: plan, launch or dial, open the session (2025 handshake or 2026-07-28),
 * then read its lists within the connect's time. Resolves undefined when the attempt went stale;
 * throws what failed, for the connection to turn into a state.
 */
export async function attemptConnect(
  a: AttemptContext,
): Promise<{ opened: OpenedClient; lists: ServerLists } | undefined> {
  const { deps, stale } = a;
  const output = deps.output;
  const plan = await planConnect(
    {
      id: a.id,
      config: a.config,
      launch: deps.launch,
      output,
      sandboxDetector: a.sandboxDetector,
      rootUris: () => (deps.handlers.listRoots?.() ?? []).map((r) => r.uri),
      ...(deps.authProviderFor ? { authProviderFor: deps.authProviderFor } : {}),
      ...(a.network ? { network: a.network } : {}),
      ...(a.dryRun ? { dryRun: a.dryRun } : {}),
      stale,
    },
    a.era,
  );
  if (!plan) return undefined;
  a.onPlanned(plan);
  const session = {
    id: a.id,
    handlers: deps.handlers,
    output,
    timeout: a.timeout,
    ...(deps.stdioProbeMs !== undefined ? { stdioProbeMs: deps.stdioProbeMs } : {}),
  };
  const listChanged = listChangedOptions(a.onListChanged);
  const onLateVerdict = (verdict: LateVerdict) => lateVerdict(deps, a.era.key, verdict, a.upgradeToModern);
  const opened = await a.opener.open(
    (signal) => openSession(plan, { ...session, listChanged, signal, onLateVerdict }),
    stale,
  );
  if (!opened) return undefined;
  if (opened.verdict)
    deps.eraCache.set(a.era.key, opened.verdict, opened.tentative ? { tentative: true } : {});
  a.onOpened(opened);
  opened.client.onerror = (error) => output.note(describeClientError(error, deps.launch.redactor));
  // A stateless (2026-07-28) connect with a cached verdict sends nothing before the
  // lists, so a missing or revoked token first shows here: that is "sign-in needed" too.
  let authWall: { error: unknown } | undefined;
  const budget = new ListBudget(a.timeout);
  const lists = await a.loadLists(opened.client, stale, (error, what) => {
    if (isAuthRequired(error)) authWall ??= { error };
    budget.failed(what, error);
  });
  if (authWall) throw authWall.error;
  budget.check();
  return stale() ? undefined : { opened, lists };
}

// The SDK's words for progress whose request it no longer tracks.
const UNKNOWN_PROGRESS = /^Received a progress notification for an unknown token/;

/**
 * A log line for what the SDK client reports outside any request. Progress that arrives after
 * its call ended (cancelled, timed out, finished) is ordinary for a server still winding down:
 * said as such, not as a transport error.
 */
function describeClientError(error: Error, redactor: Redactor): string {
  if (UNKNOWN_PROGRESS.test(error.message))
    return 'progress arrived for a call that had already ended (cancelled or finished); ignored';
  return `transport error: ${toHostError(error, redactor).message}`;
}
