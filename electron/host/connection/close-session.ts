import type { Client } from '@modelcontextprotocol/client';
import { killSnapshot, snapshotTree, type ProcessSnapshot } from './process-tree.js';
import { markedProcesses, markerOf } from './tree-marker.js';

/** How long a stdio server gets to exit on its own once its stdin is closed, before its tree is killed. */
const STDIN_GRACE_MS = 100;
/** How long the SDK's own close may take when we have no process tree to kill (a remote session's DELETE). */
const SDK_CLOSE_MS = 4000;
/** After the tree kill the SDK's close settles as soon as the dead process's pipes close. */
const AFTER_KILL_MS = 500;

/** A session to close: the SDK client and, for stdio, the pid of the process it started. */
export interface ClosableSession {
  client: Client;
  pid?: number;
}

/**
 * Close a client and make sure its whole process tree is gone, the way the spec and the SDK
 * stop a stdio server: close its stdin, give it a moment to exit on its own, then kill. The
 * SDK's own close would wait 2 s before its SIGTERM and signal only the direct child, so
 * grandchildren (npx -> node, uvx -> python) would be orphaned: snapshot the descendants
 * first, because once the parent dies they are re-parented out of reach, and kill the tree.
 */
export async function closeOpened(opened: ClosableSession, earlier?: ProcessSnapshot): Promise<void> {
  const pid = opened.pid;
  const marker = markerOf(opened.client);
  // Both scans before the close, so nothing after it delays the stop (callers rely on that);
  // the marker finds what left the tree (a double-forked daemon).
  const [now, marked] = await Promise.all([
    pid ? snapshotTree(pid).catch(() => undefined) : undefined,
    marker ? markedProcesses(marker).catch(() => undefined) : undefined,
  ]);
  opened.client.onclose = undefined;
  // The SDK's close ends the server's stdin before its first await: the grace starts now.
  const closing = opened.client.close().catch(() => undefined);
  const rows = [...(now?.rows ?? []), ...(earlier?.rows ?? []), ...(marked?.rows ?? [])];
  // Nothing of ours to kill (remote, or a tree we could not list): the SDK's close escalates itself.
  if (rows.length === 0) return settleWithin(closing, SDK_CLOSE_MS);
  await settleWithin(closing, STDIN_GRACE_MS);
  await killSnapshot({ rows });
  await settleWithin(closing, AFTER_KILL_MS);
}

/** After a server's process ended (stopped or crashed): kill what it left, tree and marked escapees. */
export async function reapClosed(opened: ClosableSession, tree?: ProcessSnapshot): Promise<void> {
  if (tree?.rows.length) await killSnapshot(tree).catch(() => undefined);
  const marker = markerOf(opened.client);
  if (!marker) return;
  const escaped = await markedProcesses(marker).catch(() => undefined);
  if (escaped?.rows.length) await killSnapshot(escaped).catch(() => undefined);
}

/** Waits for `promise`, or `ms` at most. */
async function settleWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise,
    new Promise((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}
