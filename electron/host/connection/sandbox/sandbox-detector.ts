import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Whether this machine can sandbox a stdio server, and with what. */
export type SandboxAvailability =
  { ok: true; tool: 'bubblewrap' | 'sandbox-exec'; path: string } | { ok: false; reason: string };

/** Answers "can we sandbox here?"; injected so tests can simulate a machine without one. */
export interface SandboxDetector {
  detect(): SandboxAvailability;
}

const SANDBOX_EXEC = '/usr/bin/sandbox-exec';
const TRIAL_TIMEOUT_MS = 5000;

/**
 * The flags the real launch uses besides its mounts, so the trial fails exactly when a real
 * launch would (e.g. unprivileged user namespaces switched off, or an AppArmor rule on bwrap).
 */
export const BWRAP_ISOLATION_FLAGS = [
  '--unshare-pid',
  '--unshare-ipc',
  '--unshare-uts',
  '--die-with-parent',
  '--new-session',
  '--cap-drop',
  'ALL',
];

/**
 * Detection by platform: Linux needs a bwrap that can actually create its namespaces here,
 * macOS ships sandbox-exec, Windows has nothing we can use. The verdict is cached for the
 * life of the process: the trial spawns a process, and what the kernel allows does not
 * change while we run.
 */
export class SystemSandboxDetector implements SandboxDetector {
  private verdict?: SandboxAvailability;

  constructor(
    private readonly platform: NodeJS.Platform = process.platform,
    private readonly searchPath: string = process.env.PATH ?? '',
  ) {}

  detect(): SandboxAvailability {
    this.verdict ??= this.probe();
    return this.verdict;
  }

  private probe(): SandboxAvailability {
    switch (this.platform) {
      case 'linux':
        return probeBwrap(this.searchPath);
      case 'darwin':
        return isExecutable(SANDBOX_EXEC)
          ? { ok: true, tool: 'sandbox-exec', path: SANDBOX_EXEC }
          : { ok: false, reason: `${SANDBOX_EXEC} is missing on this Mac` };
      case 'win32':
        return { ok: false, reason: 'Windows has no OS sandbox that MCP Desk can apply to a stdio server' };
      default:
        return { ok: false, reason: `no OS sandbox support on ${this.platform}` };
    }
  }
}

/** One detector per process, so every connection shares the cached verdict. */
export const systemSandboxDetector: SandboxDetector = new SystemSandboxDetector();

function probeBwrap(searchPath: string): SandboxAvailability {
  // A GUI-launched app may have a thin PATH; bwrap lives in /usr/bin on every distribution.
  const dirs = [...searchPath.split(delimiter).filter(Boolean), '/usr/bin', '/bin', '/usr/local/bin'];
  const bwrap = dirs.map((d) => join(d, 'bwrap')).find(isExecutable);
  if (!bwrap)
    return { ok: false, reason: 'bubblewrap (bwrap) is not installed; install the "bubblewrap" package' };
  const trial = spawnSync(
    bwrap,
    [
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--tmpfs',
      '/tmp',
      ...BWRAP_ISOLATION_FLAGS,
      '--',
      'true',
    ],
    { timeout: TRIAL_TIMEOUT_MS, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] },
  );
  if (trial.status === 0) return { ok: true, tool: 'bubblewrap', path: bwrap };
  const said = (trial.stderr ?? '').trim().split('\n')[0]?.slice(0, 200);
  const why = trial.error ? trial.error.message : said || `exit ${trial.status ?? trial.signal ?? 'unknown'}`;
  return { ok: false, reason: `bwrap cannot create a sandbox here (${why})` };
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
