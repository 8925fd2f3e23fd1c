import type { AuthProvider, OAuthClientProvider, PriorDiscovery } from '@modelcontextprotocol/client';
import { isStdioConfig, wantsSandbox, type ServerConfig } from '../../../shared/domain/server-config.js';
import type { SandboxState } from '../../../shared/domain/server-state.js';
import type { EraCache } from './era-cache.js';
import { launchKey } from '../config/launch-key.js';
import { planLaunch, type LaunchContext, type LaunchPlan } from './launch.js';
import type { SandboxDetector } from './sandbox/sandbox-detector.js';
import type { NetworkGate } from './sandbox/network-gate.js';
import {
  describeSandbox,
  networkKind,
  sandboxLaunch,
  visiblePaths,
  type SandboxOptions,
} from './sandbox/sandbox-launch.js';
import type { ServerOutput } from './server-output.js';

/** Where a connect gets an OAuth provider (or another bearer source) for a remote server. */
export type AuthProviderLookup = (
  serverId: string,
  url: URL,
) => Promise<AuthProvider | OAuthClientProvider | undefined>;

/** The cached protocol-era verdict for a launch config; `prior` absent means "probe". */
export interface EraVerdict {
  key: string;
  prior?: PriorDiscovery;
}

/** Everything one connect attempt decided before any byte moves: a plain value. */
export interface ConnectPlan {
  /** How to reach the server, with references expanded (and wrapped in the sandbox if any). */
  launch: LaunchPlan;
  /** The sandbox this launch runs in (stdio with `sandbox: true` only). */
  sandbox?: SandboxState;
  /** Every path the sandbox exposes (a dry run tells hidden from missing by it). */
  visible?: string[];
  era: EraVerdict;
  /** The provider to connect with (remote servers without a static Authorization header). */
  authProvider?: AuthProvider | OAuthClientProvider;
  /** The remote server's URL, which a later sign-in completes against. */
  serverUrl?: URL;
}

/** What planning needs to know about the server and its surroundings. */
export interface PlanContext {
  id: string;
  config: ServerConfig;
  launch: LaunchContext;
  output: ServerOutput;
  sandboxDetector: SandboxDetector;
  /** The shared folders (URIs), mounted into a sandbox. */
  rootUris: () => string[];
  authProviderFor?: AuthProviderLookup;
  /** True once this attempt was superseded (stop, restart): planning ends without a plan. */
  stale: () => boolean;
  /** The server's network gate: its proxy serves a network allowlist. */
  network?: NetworkGate;
  /** A dry run (dry-run/): sandboxed whatever the config says, with nothing shared. */
  dryRun?: SandboxOptions['dryRun'];
}

/** Read the cached era verdict first: a failed connect must still be able to drop it. */
export function readEra(config: ServerConfig, cache: EraCache): EraVerdict {
  const key = launchKey(config);
  const prior = cache.get(key);
  return prior ? { key, prior } : { key };
}

/**
 * The plan step of a connect: expand the launch spec, wrap a sandboxed stdio server, and
 * look up the auth provider of a remote one. Resolves undefined if the attempt went stale
 * meanwhile; throws what a person must fix (a missing secret, an unknown variable).
 */
export async function planConnect(ctx: PlanContext, era: EraVerdict): Promise<ConnectPlan | undefined> {
  let launch = await planLaunch(ctx.id, ctx.config, ctx.launch);
  if (ctx.stale()) return undefined;
  ctx.output.note(
    launch.kind === 'stdio'
      ? `starting: ${launch.command} ${launch.args.join(' ')}`
      : `connecting to ${launch.url.origin}${launch.url.pathname}`,
  );
  if (launch.kind === 'stdio') {
    if (!ctx.dryRun && !wantsSandbox(ctx.config)) return { launch, era };
    const rule = isStdioConfig(ctx.config) ? ctx.config.network : undefined;
    const options: SandboxOptions = { ...(rule ? { network: rule } : {}) };
    if (ctx.dryRun) options.dryRun = ctx.dryRun;
    else if (typeof rule === 'object' && networkKind(rule) === 'allow') {
      if (!ctx.network) throw new Error('a network allowlist needs the connection’s network gate');
      options.proxySocket = await ctx.network.socketFor(rule.allow);
      if (ctx.stale()) return undefined;
    }
    // The mounts are fixed for the life of the process: a roots change restarts it (ServerConnection.rootsChanged).
    const sandboxed = sandboxLaunch(launch, ctx.rootUris(), ctx.sandboxDetector.detect(), options);
    ctx.output.note(describeSandbox(sandboxed));
    launch = sandboxed.plan;
    return { launch, era, sandbox: sandboxed.state, visible: visiblePaths(sandboxed.layout) };
  }
  // A configured Authorization header is the credential; OAuth would only fight it.
  const hasStatic = Object.keys(launch.headers).some((h) => h.toLowerCase() === 'authorization');
  const authProvider = hasStatic ? undefined : await ctx.authProviderFor?.(ctx.id, launch.url);
  if (ctx.stale()) return undefined;
  return { launch, era, serverUrl: launch.url, ...(authProvider ? { authProvider } : {}) };
}
