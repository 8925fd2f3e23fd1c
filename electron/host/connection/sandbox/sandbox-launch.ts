import { existsSync, mkdtempSync, realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxState } from '../../../../shared/domain/server-state.js';
import { HostFailure } from '../../util/errors.js';
import type { LaunchPlan } from '../launch.js';
import { bwrapArgs, linuxSystemDirs } from './bwrap-args.js';
import type { SandboxAvailability } from './sandbox-detector.js';
import { sandboxLayout, type SandboxLayout } from './sandbox-layout.js';
import { MACOS_SYSTEM_DIRS, sbplProfile } from './sbpl-profile.js';

/** A stdio launch plan. */
export type StdioPlan = Extract<LaunchPlan, { kind: 'stdio' }>;

/** A plan rewritten to run inside the sandbox, with what the UI and the log say about it. */
export interface SandboxedLaunch {
  plan: StdioPlan;
  state: Extract<SandboxState, { kind: 'on' }>;
  layout: SandboxLayout;
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
  if (availability.tool === 'bubblewrap') {
    const layout = sandboxLayout({ ...base, system: linuxSystemDirs() });
    // The inherited TMPDIR may name a directory that is not visible inside.
    const env = { ...plan.env, TMPDIR: '/tmp' };
    const wrapped: StdioPlan = {
      ...plan,
      command: availability.path,
      args: bwrapArgs(layout, plan.command, plan.args),
      env,
    };
    return { plan: wrapped, layout, state: { kind: 'on', tool: 'bubblewrap', paths: layout.roots } };
  }
  const layout = sandboxLayout({ ...base, system: MACOS_SYSTEM_DIRS.filter((d) => existsSync(d)) });
  // Seatbelt matches resolved paths (/var is /private/var), hence the realpath.
  const privateTmp = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-desk-sandbox-')));
  const env = { ...plan.env, TMPDIR: privateTmp };
  const wrapped: StdioPlan = {
    ...plan,
    command: availability.path,
    args: ['-p', sbplProfile(layout, privateTmp), plan.command, ...plan.args],
    env,
  };
  return { plan: wrapped, layout, state: { kind: 'on', tool: 'sandbox-exec', paths: layout.roots } };
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
    `read-write: ${layout.readWrite.join(', ') || 'nothing'}`,
    `read-only besides the system: ${layout.readOnly.join(', ') || 'nothing'}`,
    ...(layout.hidden.length ? [`hidden: ${layout.hidden.join(', ')}`] : []),
    ...(layout.skipped.length ? [`roots not mounted: ${layout.skipped.join(', ')}`] : []),
  ];
  return parts.join('; ');
}
