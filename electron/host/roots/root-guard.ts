import { realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The verdict on one path: where it really is, or why it is refused. */
export type RootCheck = { ok: true; realPath: string } | { ok: false; reason: string };

/** Anything with a root URI (the store's Root, the contract's RootEntry). */
export interface RootLike {
  uri: string;
}

/**
 * Whether `pathOrFileUri` lies inside one of `roots`, after resolving symlinks on both
 * sides: the check is about where the bytes really are, so a link inside a root that
 * points out is refused and a link outside pointing in is allowed.
 */
export async function isInsideRoots(
  pathOrFileUri: string,
  roots: readonly RootLike[],
  platform: NodeJS.Platform = process.platform,
): Promise<RootCheck> {
  const target = toLocalPath(pathOrFileUri);
  if (!target.ok) return target;
  const real = await realpathNearest(target.path);
  const fold = platform === 'darwin' || platform === 'win32';
  for (const root of roots) {
    const rootPath = toLocalPath(root.uri);
    if (!rootPath.ok) continue;
    const realRoot = await realpathNearest(rootPath.path);
    if (contains(realRoot, real, fold, platform === 'darwin')) return { ok: true, realPath: real };
  }
  return {
    ok: false,
    reason: roots.length === 0 ? 'no folders are shared' : `${real} is outside the shared folders`,
  };
}

/** A file:// URI (local host only) or an absolute path, as an absolute local path. */
function toLocalPath(input: string): { ok: true; path: string } | { ok: false; reason: string } {
  if (/^[a-z][a-z0-9+.-]*:/i.test(input) && !/^[a-z]:[\\/]/i.test(input)) {
    let url: URL;
    try {
      url = new URL(input);
    } catch {
      return { ok: false, reason: `"${input}" is not a valid URI` };
    }
    if (url.protocol !== 'file:') return { ok: false, reason: `"${url.protocol}" URIs are not local files` };
    // A file://host/ URI names another machine (or a UNC share): never a local root's content.
    if (url.hostname !== '' && url.hostname !== 'localhost')
      return { ok: false, reason: `file URI names host "${url.hostname}"` };
    try {
      // fileURLToPath decodes %2e%2e and refuses encoded separators, so `..` is normalised below.
      return {
        ok: true,
        path: resolve(fileURLToPath(url.href.replace(/^file:\/\/localhost\//i, 'file:///'))),
      };
    } catch (error) {
      return { ok: false, reason: (error as Error).message };
    }
  }
  if (!isAbsolute(input)) return { ok: false, reason: `"${input}" is not an absolute path` };
  return { ok: true, path: resolve(input) };
}

/**
 * realpath of the path, or of its nearest existing ancestor with the rest appended: a file
 * about to be created must be judged by where its folder really is.
 */
async function realpathNearest(path: string): Promise<string> {
  const rest: string[] = [];
  let current = path;
  for (;;) {
    try {
      const real = await realpath(current);
      return rest.length ? join(real, ...rest.reverse()) : real;
    } catch {
      const parent = dirname(current);
      if (parent === current) return path;
      rest.push(current.slice(parent.length).replace(/^[\\/]+/, ''));
      current = parent;
    }
  }
}

/** Segment-wise containment, so /rootA-evil is not inside /rootA. */
function contains(root: string, path: string, fold: boolean, nfc: boolean): boolean {
  // macOS file systems treat composed and decomposed accents as one name; Linux does not,
  // so normalising there would let a different folder pass as the root.
  const norm = (s: string) => (nfc ? s.normalize('NFC') : s);
  const r = fold ? norm(root).toLowerCase() : norm(root);
  const p = fold ? norm(path).toLowerCase() : norm(path);
  if (p === r) return true;
  const rel = relative(r, p);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}
