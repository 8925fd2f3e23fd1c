import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readLinuxStat, readTree, type ProcessRow } from './process-table.js';

const execFileAsync = promisify(execFile);

const DEFAULT_GRACE_MS = 2000;
/** Most processes die within a few ms of SIGTERM: poll often at first, then back off to the cap. */
const FIRST_POLL_MS = 2;
const POLL_INTERVAL_MS = 25;

/** Options for {@link killProcessTree}. */
export interface KillProcessTreeOptions {
  /** How long to wait after SIGTERM before SIGKILL-ing survivors (ms, default 2000; ignored on Windows). */
  graceMs?: number;
}

/** Lists every descendant pid of `pid` (children, grandchildren, ...); empty on Windows, where taskkill /T walks the tree itself. */
export async function listDescendants(pid: number): Promise<number[]> {
  assertValidPid(pid);
  if (process.platform === 'win32') return [];
  return (await readTree(pid)).slice(1).map((row) => row.pid);
}

/** Whether a process with this pid exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  assertValidPid(pid);
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM means it exists but belongs to someone else: still alive.
    return errorCode(error) === 'EPERM';
  }
  // A zombie answers signal 0 but is already dead; when the reaper (e.g. a container's pid 1)
  // never collects orphans it would look alive forever.
  return process.platform !== 'linux' || readLinuxStat(pid)?.state !== 'Z';
}

/** Stops `pid` and every descendant: SIGTERM, wait up to graceMs, then SIGKILL survivors (taskkill /T /F on Windows); already-dead pids are fine. */
export async function killProcessTree(pid: number, opts: KillProcessTreeOptions = {}): Promise<void> {
  assertKillablePid(pid);
  if (process.platform === 'win32') {
    await killWindowsTree(pid);
    return;
  }
  // Snapshot first: once the root dies its children are reparented to init and can no longer
  // be found by walking ppid links from it.
  await terminate(await readTree(pid), opts.graceMs ?? DEFAULT_GRACE_MS, pid);
}

/** SIGTERM everyone, wait out the grace period, then SIGKILL survivors and anything they forked meanwhile. */
async function terminate(
  targets: readonly ProcessRow[],
  graceMs: number,
  rootPid: number | undefined,
): Promise<void> {
  for (const target of targets) {
    signal(target.pid, 'SIGTERM', target.pid === rootPid);
  }

  await waitUntilDead(targets, graceMs);

  const survivors = targets.filter((target) => isSameProcessAlive(target));
  if (survivors.length === 0) {
    return;
  }
  const known = new Set(survivors.map((row) => row.pid));
  const trees = await Promise.all(survivors.map((row) => readTree(row.pid)));
  const late = trees.flatMap((tree) => tree.slice(1)).filter((row) => !known.has(row.pid));
  for (const target of [...survivors, ...late]) {
    if (isSameProcessAlive(target)) {
      signal(target.pid, 'SIGKILL', false);
    }
  }
}

function assertKillablePid(pid: number): void {
  assertValidPid(pid);
  if (pid === process.pid) {
    throw new RangeError('Refusing to kill the calling process');
  }
}

function assertValidPid(pid: number): void {
  // 0 and negative numbers address process groups (-1 is "every process we may signal").
  if (!Number.isSafeInteger(pid) || pid <= 0) {
    throw new RangeError(`Invalid pid: ${String(pid)}`);
  }
}

function errorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return undefined;
}

/** Sends a signal, ignoring processes that are already gone (and, for descendants, ones we may not signal). */
function signal(pid: number, sig: NodeJS.Signals, isRoot: boolean): void {
  try {
    process.kill(pid, sig);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ESRCH' || (code === 'EPERM' && !isRoot)) {
      return;
    }
    throw error;
  }
}

/** Alive, and (where we can tell) still the process we listed rather than a recycled pid. */
function isSameProcessAlive(target: ProcessRow): boolean {
  if (!isAlive(target.pid)) {
    return false;
  }
  if (process.platform !== 'linux' || target.startTime === undefined) {
    return true;
  }
  return readLinuxStat(target.pid)?.startTime === target.startTime;
}

async function waitUntilDead(targets: readonly ProcessRow[], graceMs: number): Promise<void> {
  const deadline = Date.now() + graceMs;
  let pollMs = FIRST_POLL_MS;
  while (targets.some((target) => isSameProcessAlive(target))) {
    if (Date.now() >= deadline) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    pollMs = Math.min(POLL_INTERVAL_MS, pollMs * 2);
  }
}

async function killWindowsTree(pid: number): Promise<void> {
  try {
    await execFileAsync('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true });
  } catch {
    // taskkill exits non-zero when the process is already gone; anything still alive is
    // reported by the caller's own isAlive check rather than as an exception here.
  }
}

/** A remembered set of processes (pid plus start time, so a recycled pid is never hit). */
export interface ProcessSnapshot {
  readonly rows: readonly ProcessRow[];
}

/** Records `pid` and its current descendants, to be killed later even after re-parenting. */
export async function snapshotTree(pid: number): Promise<ProcessSnapshot> {
  assertValidPid(pid);
  return { rows: await readTree(pid) };
}

/** SIGTERM every still-living process of a snapshot, then SIGKILL what survives graceMs. */
export async function killSnapshot(snapshot: ProcessSnapshot, graceMs = DEFAULT_GRACE_MS): Promise<void> {
  if (process.platform === 'win32') {
    for (const row of snapshot.rows) await killWindowsTree(row.pid);
    return;
  }
  const targets = snapshot.rows.filter((row) => row.pid !== process.pid && isSameProcessAlive(row));
  await terminate(targets, graceMs, undefined);
}
