import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import type { Client } from '@modelcontextprotocol/client';
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
 */
export async function markedProcesses(marker: string): Promise<ProcessSnapshot> {
  if (process.platform !== 'linux') return { rows: [] };
  const needle = `${TREE_MARKER_ENV}=${marker}`;
  let names: string[];
  try {
    names = (await readdir('/proc')).filter((n) => /^\d+$/.test(n) && Number(n) !== process.pid);
  } catch {
    return { rows: [] };
  }
  const rows = await Promise.all(
    names.map(async (name) => {
      try {
        const env = await readFile(`/proc/${name}/environ`, 'latin1');
        if (!env.split('\0').includes(needle)) return undefined;
        const stat = await readFile(`/proc/${name}/stat`, 'utf8');
        const fields = stat
          .slice(stat.lastIndexOf(')') + 1)
          .trim()
          .split(/\s+/);
        return { pid: Number(name), ppid: Number(fields[1]), startTime: fields[19] };
      } catch {
        // Gone meanwhile, or not ours to read.
        return undefined;
      }
    }),
  );
  return { rows: rows.filter((r) => r !== undefined) };
}
