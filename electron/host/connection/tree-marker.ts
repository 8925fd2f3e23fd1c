import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/client';
import { readLinuxStat, type ProcessRow } from './process-table.js';
import type { ProcessSnapshot } from './process-tree.js';

/** The environment variable that marks every process a stdio server started. */
export const TREE_MARKER_ENV = 'MCP_DESK_SERVER_TREE';

const markers = new WeakMap<Client, string>();

/**
 * A fresh marker for one launch, to put in the server's environment. Children inherit it, so
 * a grandchild that escaped the process tree (double-forked, or re-parented when its parent
 * died) still carries it, where walking parent links from the server can no longer find it.
 */
export function newTreeMarker(): string {
  return randomUUID();
}

/** Remember which marker a client's process was launched with. */
export function rememberMarker(client: Client, marker: string): void {
  markers.set(client, marker);
}

/** The marker a client's process was launched with, if any. */
export function markerOf(client: Client): string | undefined {
  return markers.get(client);
}

/**
 * Every live process carrying `marker` in its environment (Linux, where /proc shows it;
 * empty elsewhere, and for processes we may not read, which are not ours to kill anyway).
 * Scans asked for together share one pass over /proc: twenty servers stopping at once read
 * every process's environment once, not twenty times.
 */
export function markedProcesses(marker: string): Promise<ProcessSnapshot> {
  if (process.platform !== 'linux') return Promise.resolve({ rows: [] });
  return new Promise((resolve) => {
    queued ??= new Map();
    const waiting = queued.get(marker);
    if (waiting) waiting.push(resolve);
    else queued.set(marker, [resolve]);
    if (!scanning) startScan();
  });
}

type Waiter = (snapshot: ProcessSnapshot) => void;
/** Markers asked for since the running scan began: a scan that began before the ask might miss a process, so they wait for the next. */
let queued: Map<string, Waiter[]> | undefined;
let scanning = false;

function startScan(): void {
  scanning = true;
  // One turn of the loop lets the asks of the same moment (a host stopping every server) join.
  setImmediate(() => {
    const batch = queued ?? new Map<string, Waiter[]>();
    queued = undefined;
    const found = scanProc(new Set(batch.keys()));
    for (const [marker, waiters] of batch) {
      const rows = found.get(marker) ?? [];
      for (const resolve of waiters) resolve({ rows });
    }
    scanning = false;
    if (queued) startScan();
  });
}

const PREFIX = `${TREE_MARKER_ENV}=`;

/**
 * One pass over /proc: each process's environment read once, checked against every marker.
 * Read synchronously, like the process table (process-table.ts): /proc files are generated in
 * memory, and hundreds of reads through the thread pool cost more than the reads themselves.
 */
function scanProc(markers: ReadonlySet<string>): Map<string, ProcessRow[]> {
  const found = new Map<string, ProcessRow[]>();
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return found;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let env: string;
    try {
      env = readFileSync(`/proc/${name}/environ`, 'latin1');
    } catch {
      continue; // Gone meanwhile, or not ours to read.
    }
    const marker = markerIn(env);
    if (marker === undefined || !markers.has(marker)) continue;
    const pid = Number(name);
    const stat = readLinuxStat(pid);
    if (!stat) continue;
    const rows = found.get(marker) ?? [];
    rows.push({ pid, ppid: stat.ppid, startTime: stat.startTime });
    found.set(marker, rows);
  }
  return found;
}

/** The marker in a NUL-separated environment block, if it carries one. */
function markerIn(env: string): string | undefined {
  const at = env.startsWith(PREFIX) ? 0 : env.indexOf(`\0${PREFIX}`) + 1;
  if (at === 0 && !env.startsWith(PREFIX)) return undefined;
  const from = at + PREFIX.length;
  const end = env.indexOf('\0', from);
  return env.slice(from, end === -1 ? undefined : end);
}
