import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** One row of the process table: who a process is, who its parent is, and when it started. */
export interface ProcessRow {
  pid: number;
  ppid: number;
  /** Start time in clock ticks since boot (Linux only); lets us notice a recycled pid. */
  startTime?: string | undefined;
}

/**
 * `pid` and every process under it, root first (the root is listed even when it is gone; on
 * Windows it is all that is listed, since taskkill /T walks the tree itself). On Linux the
 * tree is walked through /proc/PID/task/TID/children: a handful of files per process in the
 * tree, where the whole table is hundreds (thousands on a busy machine) — the read every
 * server start and stop used to pay, one after the other on the main thread.
 */
export async function readTree(pid: number): Promise<ProcessRow[]> {
  if (process.platform === 'win32') return [{ pid, ppid: -1 }];
  if (process.platform === 'linux' && childrenFilesExist()) return walkLinuxTree(pid);
  const rows = await readProcessTable();
  const root = rows.find((row) => row.pid === pid) ?? { pid, ppid: -1 };
  return [root, ...descendantsFrom(rows, pid)];
}

/** Every process (pid, parent, start time); empty on Windows. */
export async function readProcessTable(): Promise<ProcessRow[]> {
  if (process.platform === 'win32') {
    return [];
  }
  if (process.platform === 'linux') {
    try {
      return readLinuxProcessTable();
    } catch {
      // /proc not mounted (some sandboxes): ps still works.
    }
  }
  return readPsProcessTable();
}

/** The descendants of `rootPid` in a table, breadth first. */
export function descendantsFrom(rows: readonly ProcessRow[], rootPid: number): ProcessRow[] {
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

/** A process's state letter, parent and start time from /proc/PID/stat (Linux); undefined once it is gone. */
export function readLinuxStat(
  pid: number,
): { state: string; ppid: number; startTime: string | undefined } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text
      .slice(text.lastIndexOf(')') + 1)
      .trim()
      .split(/\s+/);
    return { state: fields[0] ?? '', ppid: Number(fields[1]), startTime: fields[19] };
  } catch {
    return undefined;
  }
}

let childrenSupported: boolean | undefined;

/** Whether this kernel has /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN, Linux 3.5+). */
function childrenFilesExist(): boolean {
  childrenSupported ??= existsSync(`/proc/${process.pid}/task/${process.pid}/children`);
  return childrenSupported;
}

/**
 * The tree under `rootPid` from the children files of every thread (a child belongs to the
 * thread that forked it). Read synchronously, as the table was: /proc files are generated in
 * memory, and a few tiny sync reads beat a round trip through the thread pool each.
 */
function walkLinuxTree(rootPid: number): ProcessRow[] {
  const root = readLinuxStat(rootPid);
  if (!root) return [{ pid: rootPid, ppid: -1 }];
  const rows: ProcessRow[] = [{ pid: rootPid, ppid: root.ppid, startTime: root.startTime }];
  const seen = new Set<number>([rootPid]);
  for (let i = 0; i < rows.length; i++) {
    const parent = rows[i].pid;
    let threads: string[];
    try {
      threads = readdirSync(`/proc/${parent}/task`);
    } catch {
      continue; // Exited meanwhile.
    }
    for (const tid of threads) {
      let text: string;
      try {
        text = readFileSync(`/proc/${parent}/task/${tid}/children`, 'utf8');
      } catch {
        continue; // The thread or the process ended meanwhile.
      }
      for (const field of text.split(' ')) {
        const pid = Number(field);
        if (!field || !Number.isSafeInteger(pid) || seen.has(pid)) continue;
        seen.add(pid);
        const stat = readLinuxStat(pid);
        if (stat) rows.push({ pid, ppid: parent, startTime: stat.startTime });
      }
    }
  }
  return rows;
}

/**
 * Read synchronously on purpose: /proc files are generated in memory, and a few hundred tiny
 * sync reads take a few ms where the same reads through the thread pool took tens of ms.
 */
function readLinuxProcessTable(): ProcessRow[] {
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
  return rows;
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
