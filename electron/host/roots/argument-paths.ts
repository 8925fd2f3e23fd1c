import { homedir } from 'node:os';
import { join } from 'node:path';
import { isInsideRoots, type RootLike } from './root-guard.js';

/** Strings longer than any real path are content, not paths (PATH_MAX is 4096 on Linux). */
const MAX_PATH_LENGTH = 4096;

/** Knobs for tests: whose home `~` means, and which platform's case rules apply. */
export interface ArgumentPathOptions {
  home?: string;
  platform?: NodeJS.Platform;
}

/**
 * The local path a tool-argument string names, as `isInsideRoots` takes it, or undefined
 * when the string is not a path candidate. The heuristic judges the WHOLE trimmed string,
 * so a path mentioned inside prose ("see /etc/hosts") is not one:
 * - an absolute POSIX path: starts with `/` (so `/` itself counts);
 * - a Windows path: a drive (`C:\…`, `C:/…`) or a UNC share (`\\server\…`);
 * - the home folder: `~` alone or `~/…` (`~\…`), expanded to the home directory;
 * - a `file:` URI (one naming another host is never inside a root).
 * Never a candidate: text with a line break (file contents, messages), relative paths
 * (`notes.txt`, `../x`: the server resolves them against a working directory the host does
 * not know), `~user/…`, and URLs of any other scheme (`https://…`). The rule leans towards
 * asking: a one-line string such as `/help` counts as a path, which costs one approval
 * card, whereas a missed path would let a trusted server touch an unshared file.
 */
export function argumentPath(value: string, home: string = homedir()): string | undefined {
  const s = value.trim();
  if (s === '' || s.length > MAX_PATH_LENGTH || /[\r\n]/.test(s)) return undefined;
  if (/^file:/i.test(s)) return s;
  if (s.startsWith('/')) return s;
  if (/^[a-z]:[\\/]/i.test(s) || /^\\\\[^\\]/.test(s)) return s;
  if (s === '~') return home;
  if (/^~[\\/]/.test(s)) return join(home, s.slice(2));
  return undefined;
}

/** Every string value in a tool call's arguments (object values and array items, at any depth; keys are names, not data). */
export function argumentStrings(args: unknown): string[] {
  const found: string[] = [];
  // Iterative, with no depth limit: arguments come from a model, and nesting a path deeper
  // than some cut-off must not be a way around the check.
  const stack: unknown[] = [args];
  const seen = new Set<object>();
  while (stack.length) {
    const value = stack.pop();
    if (typeof value === 'string') found.push(value);
    else if (value !== null && typeof value === 'object' && !seen.has(value)) {
      seen.add(value);
      const items = Array.isArray(value) ? value : Object.values(value);
      for (let i = items.length - 1; i >= 0; i--) stack.push(items[i]);
    }
  }
  return found;
}

/**
 * The strings in a tool call's arguments that name local paths outside the shared folders,
 * as written (trimmed, each once, in argument order). Both sides are resolved with realpath
 * by `isInsideRoots`, so `..` and a symlink inside a root that points out are caught. With no
 * folders shared at all nothing is restricted (the person has drawn no boundary), as for
 * resources/read. Never throws: a path that cannot be checked counts as outside.
 */
export async function pathsOutsideRoots(
  args: unknown,
  roots: readonly RootLike[],
  opts: ArgumentPathOptions = {},
): Promise<string[]> {
  if (roots.length === 0) return [];
  const home = opts.home ?? homedir();
  const candidates = new Map<string, string>();
  for (const raw of argumentStrings(args)) {
    const local = argumentPath(raw, home);
    if (local !== undefined && !candidates.has(raw.trim())) candidates.set(raw.trim(), local);
  }
  const verdicts = await Promise.all(
    [...candidates].map(async ([written, local]) => {
      try {
        return (await isInsideRoots(local, roots, opts.platform)).ok ? undefined : written;
      } catch {
        return written;
      }
    }),
  );
  return verdicts.filter((v): v is string => v !== undefined);
}
