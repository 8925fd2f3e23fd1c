import { readFile, rename } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HostFailure } from '../util/errors.js';
import { SerialWriter } from '../util/atomic-write.js';
import type { Disposable } from '../util/disposable.js';

/** One root as servers receive it in `roots/list`: always a file:// URL. */
export interface Root {
  uri: string;
  name?: string;
}

/** What a caller may hand to `set`: an absolute path or a file:// URI. */
export interface RootInput {
  uri: string;
  name?: string;
}

export type RootsListener = (roots: Root[]) => void;

/** A root's name is shown to servers and people; keep it a short single line. */
const MAX_NAME = 200;

/**
 * Turn one input into a root. Only absolute local paths and file:// URIs are accepted:
 * the spec says root URIs MUST be file://, and a relative path would silently depend on
 * the host's working directory.
 */
export function normalizeRoot(input: RootInput): Root {
  const raw = input.uri.trim();
  let uri: string;
  if (/^file:/i.test(raw)) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new HostFailure('invalid_root', `"${raw}" is not a valid file:// URI`);
    }
    if (url.protocol !== 'file:') throw new HostFailure('invalid_root', `"${raw}" is not a file:// URI`);
    uri = url.href;
  } else if (isAbsolute(raw)) {
    uri = pathToFileURL(raw).href;
  } else {
    throw new HostFailure('invalid_root', `"${raw}" is neither an absolute path nor a file:// URI`);
  }
  const name = input.name?.trim();
  if (name && (name.length > MAX_NAME || /[\r\n]/.test(name)))
    throw new HostFailure(
      'invalid_root',
      `root name for "${uri}" must be one line of at most ${MAX_NAME} characters`,
    );
  return name ? { uri, name } : { uri };
}

/** Validate a whole list; duplicates (same URI) keep the first entry. */
export function normalizeRoots(inputs: readonly RootInput[]): Root[] {
  const seen = new Set<string>();
  const out: Root[] = [];
  for (const input of inputs) {
    const root = normalizeRoot(input);
    if (seen.has(root.uri)) continue;
    seen.add(root.uri);
    out.push(root);
  }
  return out;
}

/**
 * The folders the person has shared with servers. `set` validates everything before
 * changing anything, so a bad entry never leaves a half-applied list.
 */
export class RootsStore implements Disposable {
  private roots: Root[] = [];
  private readonly listeners = new Set<RootsListener>();

  protected constructor(
    private readonly writer?: SerialWriter,
    initial: Root[] = [],
  ) {
    this.roots = initial;
  }

  /** Roots kept in memory only (CLI one-shots, tests). */
  static inMemory(initial: readonly RootInput[] = []): RootsStore {
    return new RootsStore(undefined, normalizeRoots(initial));
  }

  /**
   * Roots persisted in `path`. A file that cannot be parsed is moved aside (so the person
   * can recover it) and the list starts empty: sharing nothing is the safe failure.
   */
  static async open(
    path: string,
    warn: (message: string) => void = (m) => console.warn(m),
  ): Promise<RootsStore> {
    let text: string | undefined;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    let initial: Root[] = [];
    if (text !== undefined) {
      try {
        initial = parseRootsFile(text);
      } catch (error) {
        const aside = `${path}.corrupt-${Date.now()}`;
        await rename(path, aside).catch(() => undefined);
        warn(
          `roots file ${path} is unreadable (${(error as Error).message}); starting with no roots, old file kept as ${aside}`,
        );
      }
    }
    return new RootsStore(new SerialWriter(path), initial);
  }

  /** A copy, so callers cannot mutate the store. */
  list(): Root[] {
    return this.roots.map((r) => ({ ...r }));
  }

  /** Replace the whole list; resolves once it is on disk (file variant). Returns the stored list. */
  async set(inputs: readonly RootInput[]): Promise<Root[]> {
    const next = normalizeRoots(inputs);
    const same =
      next.length === this.roots.length &&
      next.every((r, i) => r.uri === this.roots[i]?.uri && r.name === this.roots[i]?.name);
    this.roots = next;
    if (this.writer) await this.writer.write(`${JSON.stringify({ roots: next }, null, 2)}\n`);
    // Listeners notify servers; telling them about a no-op change would only cost a round trip.
    if (!same) for (const listener of [...this.listeners]) listener(this.list());
    return this.list();
  }

  onChange(listener: RootsListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async flush(): Promise<void> {
    await this.writer?.flush();
  }

  /** Shutdown: the last change reaches the disk. */
  dispose(): Promise<void> {
    return this.flush();
  }
}

function parseRootsFile(text: string): Root[] {
  const doc: unknown = JSON.parse(text);
  const list = typeof doc === 'object' && doc !== null ? (doc as { roots?: unknown }).roots : undefined;
  if (!Array.isArray(list)) throw new Error('expected { "roots": [...] }');
  const inputs: RootInput[] = list.map((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null || typeof (entry as { uri?: unknown }).uri !== 'string')
      throw new Error('each root needs a "uri" string');
    const { uri, name } = entry as { uri: string; name?: unknown };
    return typeof name === 'string' ? { uri, name } : { uri };
  });
  return normalizeRoots(inputs);
}
