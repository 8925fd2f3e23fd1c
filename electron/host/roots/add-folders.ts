import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RootsAddResult } from '../../../shared/ipc/contract.js';
import { HostFailure } from '../util/errors.js';
import type { RootsStore } from './roots-store.js';

/**
 * Add local folders to the roots, as a drop, the tray or the folder picker hands them over.
 * Only existing directories are shared: a dropped file, a vanished path or a relative path
 * is refused with its reason, and the rest are still added (one bad item loses nothing).
 * A folder already shared is neither duplicated nor reported as refused.
 */
export async function addFolders(store: RootsStore, paths: readonly string[]): Promise<RootsAddResult> {
  const current = store.list();
  const known = new Set(current.map((r) => r.uri));
  const added: string[] = [];
  const refused: RootsAddResult['refused'] = [];
  for (const raw of paths) {
    const reason = await folderProblem(raw);
    if (reason) {
      refused.push({ path: raw, reason });
      continue;
    }
    const uri = pathToFileURL(resolve(raw)).href;
    if (known.has(uri)) continue;
    known.add(uri);
    added.push(resolve(raw));
  }
  if (added.length === 0) return { roots: current, added, refused };
  const roots = await store.set([...current, ...added.map((p) => ({ uri: pathToFileURL(p).href }))]);
  return { roots, added, refused };
}

/** Why a path cannot be a root, or undefined when it can. */
async function folderProblem(path: string): Promise<string | undefined> {
  if (!isAbsolute(path)) return 'not an absolute path';
  try {
    const info = await stat(path);
    return info.isDirectory() ? undefined : 'not a folder (only folders can be shared)';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'no such folder' : `cannot be read (${code ?? 'error'})`;
  }
}

/** The refusal when nothing at all could be added: a clear error instead of a silent no-op. */
export function assertSomethingAdded(result: RootsAddResult, asked: number): RootsAddResult {
  if (result.added.length === 0 && result.refused.length === asked && asked > 0) {
    const list = result.refused.map((r) => `${r.path}: ${r.reason}`).join('; ');
    throw new HostFailure('not_a_folder', `nothing was shared: ${list}`);
  }
  return result;
}
