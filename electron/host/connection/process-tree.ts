import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';

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

/** One row of the process table: who a process is, who its parent is, and when it started. */
interface ProcessRow {
  pid: number;
  ppid: number;
  /** Start time in clock ticks since boot (Linux only); lets us notice a recycled pid. */
  startTime?: string | undefined;
}

/** Lists every descendant pid of `pid` (children, grandchildren, ...); empty on Windows, where taskkill /T walks the tree itself. */
export async function listDescendants(pid: number): Promise<number[]> {
  assertValidPid(pid);
  const rows = await readProcessTable();
  return descendantsFrom(rows, pid).map((row) => row.pid);
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
  return process.platform !== 'linux' || readLinuxState(pid) !== 'Z';
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
  const rows = await readProcessTable();
  const rootRow = rows.find((row) => row.pid === pid) ?? { pid, ppid: -1 };
  await terminate([rootRow, ...descendantsFrom(rows, pid)], opts.graceMs ?? DEFAULT_GRACE_MS, pid);
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
  const laterRows = await readProcessTable();
  const known = new Set(survivors.map((row) => row.pid));
  const late = survivors
    .flatMap((row) => descendantsFrom(laterRows, row.pid))
    .filter((row) => !known.has(row.pid));
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

function descendantsFrom(rows: readonly ProcessRow[], rootPid: number): ProcessRow[] {
  const childrenOf = new Map<number, ProcessRow[]>();
  for (const row of rows) {
    const siblings = childrenOf.get(row.ppid);
    if (siblings) {
      siblings.push(row);
    } else {
      childrenOf.set(row.ppid, [row]);
    }
  }
  const found: ProcessRow[] = [];
  const seen = new Set<number>([rootPid]);
  const queue: number[] = [rootPid];
  // for-of over an array also visits elements pushed during the loop: a breadth-first walk.
  for (const parent of queue) {
    for (const child of childrenOf.get(parent) ?? []) {
      // Guards against a cycle in a table read while processes were coming and going.
      if (seen.has(child.pid)) {
        continue;
      }
      seen.add(child.pid);
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

async function readProcessTable(): Promise<ProcessRow[]> {
  if (process.platform === 'win32') {
    return [];
  }
  if (process.platform === 'linux') {
    try {
      return await readLinuxProcessTable();
    } catch {
      // /proc not mounted (some sandboxes): ps still works.
    }
  }
  return readPsProcessTable();
}

/**
 * Read synchronously on purpose: /proc files are generated in memory, and a few hundred tiny
 * sync reads take a few ms where the same reads through the thread pool took tens of ms — time
 * every server stop (and so every CLI exit and app quit) used to wait on.
 */
async function readLinuxProcessTable(): Promise<ProcessRow[]> {
  const rows: ProcessRow[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const row = parseLinuxStat(readFileSync(`/proc/${name}/stat`, 'utf8'));
      if (row) rows.push(row);
    } catch {
      // The process exited between readdir and readFile.
    }
  }
  return Promise.resolve(rows);
}

/** Parses /proc/PID/stat; the comm field may hold spaces and parentheses, so fields are counted from the LAST ')'. */
function parseLinuxStat(text: string): ProcessRow | undefined {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) {
    return undefined;
  }
  const pid = Number(text.slice(0, open).trim());
  // After ")": state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime
  // cutime cstime priority nice num_threads itrealvalue starttime ...
  const fields = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  const ppid = Number(fields[1]);
  if (!Number.isSafeInteger(pid) || !Number.isSafeInteger(ppid)) {
    return undefined;
  }
  return { pid, ppid, startTime: fields[19] };
}

function readLinuxStat(pid: number): { state: string; startTime: string | undefined } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text
      .slice(text.lastIndexOf(')') + 1)
      .trim()
      .split(/\s+/);
    return { state: fields[0] ?? '', startTime: fields[19] };
  } catch {
    return undefined;
  }
}

function readLinuxState(pid: number): string | undefined {
  return readLinuxStat(pid)?.state;
}

async function readPsProcessTable(): Promise<ProcessRow[]> {
  const { stdout } = await execFileAsync('ps', ['-A', '-o', 'pid=,ppid='], { maxBuffer: 16 * 1024 * 1024 });
  const rows: ProcessRow[] = [];
  for (const line of stdout.split('\n')) {
    const match = /^\s*(\d+)\s+(\d+)\s*$/.exec(line);
    if (match) {
      rows.push({ pid: Number(match[1]), ppid: Number(match[2]) });
    }
  }
  return rows;
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

/**
 * Records `pid` and its current descendants, to be killed later even after re-parenting.
 * `maxAgeMs` lets snapshots taken close together share one read of the process table (one
 * read is hundreds of files; twenty servers starting or stopping at once would otherwise read
 * it forty times, one after the other on the main thread). A shared table is used only if it
 * already lists `pid`; a child started after it was read is missed by this snapshot.
 */
export async function snapshotTree(pid: number, maxAgeMs = 0): Promise<ProcessSnapshot> {
  assertValidPid(pid);
  if (process.platform === 'win32') {
    return { rows: [{ pid, ppid: -1 }] };
  }
  const rows = await tableListing(pid, maxAgeMs);
  const root = rows.find((row) => row.pid === pid) ?? { pid, ppid: -1 };
  return { rows: [root, ...descendantsFrom(rows, pid)] };
}

/** The last full read of the process table, for snapshots that accept a recent one. */
let lastTable: { readAt: number; rows: ProcessRow[]; pids: Set<number> } | undefined;

async function tableListing(pid: number, maxAgeMs: number): Promise<ProcessRow[]> {
  const recent = lastTable;
  if (maxAgeMs > 0 && recent && performance.now() - recent.readAt <= maxAgeMs && recent.pids.has(pid))
    return recent.rows;
  const rows = await readProcessTable();
  lastTable = { readAt: performance.now(), rows, pids: new Set(rows.map((row) => row.pid)) };
  return rows;
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
