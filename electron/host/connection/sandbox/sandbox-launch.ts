import { existsSync, mkdtempSync, realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NetworkRule } from '../../../../shared/domain/server-config.js';
import type { SandboxState } from '../../../../shared/domain/server-state.js';
import { HostFailure } from '../../util/errors.js';
import type { LaunchPlan } from '../launch.js';
import { bwrapArgs, linuxSystemDirs } from './bwrap-args.js';
import type { SandboxAvailability } from './sandbox-detector.js';
import { sandboxLayout, type SandboxLayout } from './sandbox-layout.js';
import { MACOS_SYSTEM_DIRS, sbplProfile } from './sbpl-profile.js';
import { behindForwarder, proxyEnv } from './net-forwarder.js';
import { tracedCommand } from './syscall-trace.js';

/** A stdio launch plan. */
export type StdioPlan = Extract<LaunchPlan, { kind: 'stdio' }>;

/** A plan rewritten to run inside the sandbox, with what the UI and the log say about it. */
export interface SandboxedLaunch {
  plan: StdioPlan;
  state: Extract<SandboxState, { kind: 'on' }>;
  layout: SandboxLayout;
}

/** What, besides the roots, shapes one sandboxed launch. */
export interface SandboxOptions {
  /** The server's network rule (absent: `any`, the network is shared as before). */
  network?: NetworkRule;
  /** The running network proxy's socket: required for an allowlist (see network-proxy.ts). */
  proxySocket?: string;
  /**
   * A dry run: no roots, nothing writable but `tmp` (mounted as /tmp, and HOME), no network;
   * with `trace`, strace records what the server tries into `<base>.<pid>` files.
   */
  dryRun?: { tmp: string; trace?: { strace: string; base: string } };
}

/**
 * Wrap a stdio plan in the OS sandbox, limited to `roots` (file:// URIs) plus what the
 * server needs to start. When the sandbox is unavailable this throws: a server that asked
 * for a sandbox must never quietly run without one.
 */
export function sandboxLaunch(
  plan: StdioPlan,
  roots: string[],
  availability: SandboxAvailability,
  options: SandboxOptions = {},
): SandboxedLaunch {
  if (!availability.ok) {
    throw new HostFailure(
      'sandbox_unavailable',
      `this server is set to run in an OS sandbox, which is unavailable: ${availability.reason}`,
    );
  }
  const base = {
    command: plan.command,
    args: plan.args,
    env: plan.env,
    roots,
    hostHome: homedir(),
    hostCwd: process.cwd(),
    ...(plan.cwd ? { cwd: plan.cwd } : {}),
  };
  const dryRun = options.dryRun;
  const network = dryRun ? 'none' : networkKind(options.network);
  const networkState = network === 'any' ? {} : { network };
  if (availability.tool === 'bubblewrap') {
    const layout = sandboxLayout({
      ...base,
      system: linuxSystemDirs(),
      ...(dryRun ? { dryRunTmp: dryRun.tmp, roots: [] } : {}),
      ...(network === 'allow' ? { alsoRuns: [process.execPath] } : {}),
    });
    // The inherited TMPDIR may name a directory that is not visible inside.
    let env: Record<string, string> = { ...plan.env, TMPDIR: '/tmp' };
    let inner = { command: plan.command, args: plan.args };
    const sockets: string[] = [];
    if (network === 'allow') {
      if (!options.proxySocket) throw new Error('a network allowlist needs its proxy running first');
      sockets.push(options.proxySocket);
      env = { ...env, ...proxyEnv(), ELECTRON_RUN_AS_NODE: '1' };
      inner = behindForwarder(
        process.execPath,
        options.proxySocket,
        plan.command,
        plan.args,
        plan.env.ELECTRON_RUN_AS_NODE === '1',
      );
    }
    const outer = {
      command: availability.path,
      args: bwrapArgs(layout, inner.command, inner.args, { isolated: network !== 'any', sockets }),
    };
    const traced = dryRun?.trace
      ? tracedCommand(dryRun.trace.strace, dryRun.trace.base, outer.command, outer.args)
      : outer;
    const wrapped: StdioPlan = { ...plan, ...traced, env };
    return {
      plan: wrapped,
      layout,
      state: { kind: 'on', tool: 'bubblewrap', paths: layout.roots, ...networkState },
    };
  }
  if (network === 'allow')
    throw new HostFailure(
      'sandbox_unavailable',
      'a network allowlist is enforced on Linux only for now; on this system choose "none" or "any"',
    );
  const layout = sandboxLayout({
    ...base,
    system: MACOS_SYSTEM_DIRS.filter((d) => existsSync(d)),
    ...(dryRun ? { roots: [] } : {}),
  });
  // Seatbelt matches resolved paths (/var is /private/var), hence the realpath.
  const privateTmp = realpathSync(dryRun ? dryRun.tmp : mkdtempSync(join(tmpdir(), 'mcp-desk-sandbox-')));
  const env = { ...plan.env, TMPDIR: privateTmp };
  const wrapped: StdioPlan = {
    ...plan,
    command: availability.path,
    args: ['-p', sbplProfile(layout, privateTmp, network === 'none'), plan.command, ...plan.args],
    env,
  };
  return {
    plan: wrapped,
    layout,
    state: { kind: 'on', tool: 'sandbox-exec', paths: layout.roots, ...networkState },
  };
}

/** A rule's kind: `any` when none is set. */
export function networkKind(rule: NetworkRule | undefined): 'none' | 'any' | 'allow' {
  if (rule === undefined) return 'any';
  return typeof rule === 'string' ? rule : 'allow';
}

/**
 * The UI's view of a stdio server's sandbox: what the last launch used, else what the next
 * would use. Availability is asked only when a sandbox is wanted (the Linux check spawns bwrap).
 */
export function sandboxStateOf(
  wanted: boolean,
  available: () => SandboxAvailability,
  launched: SandboxState | undefined,
  roots: number,
): SandboxState {
  if (!wanted) return { kind: 'off' };
  const a = available();
  if (!a.ok) return { kind: 'unavailable', reason: a.reason };
  return launched ?? { kind: 'on', tool: a.tool, paths: roots };
}

/** One log line saying what the sandbox lets the server see. */
export function describeSandbox(launch: SandboxedLaunch): string {
  const { layout, state } = launch;
  const parts = [
    `sandbox: ${state.tool}`,
    `network: ${state.network ?? 'shared'}`,
    `read-write: ${layout.readWrite.join(', ') || 'nothing'}`,
    `read-only besides the system: ${layout.readOnly.join(', ') || 'nothing'}`,
    ...(layout.hidden.length ? [`hidden: ${layout.hidden.join(', ')}`] : []),
    ...(layout.skipped.length ? [`roots not mounted: ${layout.skipped.join(', ')}`] : []),
  ];
  return parts.join('; ');
}

/** Every path a layout makes visible inside, besides what every sandbox has (/dev, /proc, /tmp). */
export function visiblePaths(layout: SandboxLayout): string[] {
  return [...layout.system, ...layout.readOnly, ...layout.readWrite, '/dev', '/proc', '/tmp'];
}
