import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Whether what a sandboxed process tries can be recorded here, and with what. */
export type TraceAvailability = { ok: true; path: string } | { ok: false; reason: string };

/** The system calls a dry run records: every one that names a path, connections, and forks (to follow them). */
const TRACED = 'trace=%file,connect,sendto,sendmsg,clone,clone3,fork,vfork';
const TRIAL_TIMEOUT_MS = 5000;

let verdict: TraceAvailability | undefined;

/**
 * strace, if it is installed and may trace here (a container may forbid ptrace). Asked once
 * per process: the trial spawns strace, and what the kernel allows does not change while we run.
 */
export function traceAvailability(searchPath: string = process.env.PATH ?? ''): TraceAvailability {
  verdict ??= probe(searchPath);
  return verdict;
}

function probe(searchPath: string): TraceAvailability {
  if (process.platform !== 'linux')
    return {
      ok: false,
      reason: `recording what a server tries needs strace on Linux (this is ${process.platform})`,
    };
  const dirs = [...searchPath.split(delimiter).filter(Boolean), '/usr/bin', '/bin'];
  const strace = dirs.map((d) => join(d, 'strace')).find(isExecutable);
  if (!strace)
    return {
      ok: false,
      reason:
        'strace is not installed, so what the server tried is not recorded; install the "strace" package',
    };
  const trial = spawnSync(strace, ['-f', '-qq', '-o', '/dev/null', '--', 'true'], {
    timeout: TRIAL_TIMEOUT_MS,
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (trial.status === 0) return { ok: true, path: strace };
  const said = (trial.stderr ?? '').trim().split('\n')[0]?.slice(0, 200);
  return {
    ok: false,
    reason: `strace cannot trace here (${trial.error?.message ?? (said || `exit ${trial.status ?? 'unknown'}`)})`,
  };
}

/**
 * `command args` under strace, following every process and thread, one output file per
 * process (`<base>.<pid>`): a per-process file keeps each one's calls in order without
 * interleaving, and the era probe's second launch gets files of its own. strace runs outside
 * the sandbox, so the server can neither see nor rewrite what is recorded.
 */
export function tracedCommand(
  strace: string,
  base: string,
  command: string,
  args: string[],
): { command: string; args: string[] } {
  return {
    command: strace,
    args: [
      '-f',
      '-ff',
      '-qq',
      '--seccomp-bpf',
      '--pidns-translation',
      '-s',
      '4096',
      '-e',
      TRACED,
      '-o',
      base,
      '--',
      command,
      ...args,
    ],
  };
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
