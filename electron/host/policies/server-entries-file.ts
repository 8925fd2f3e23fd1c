import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { SerialWriter } from '../util/atomic-write.js';

const fileSchema = z
  .object({ version: z.literal(1), servers: z.record(z.string().min(1).max(300), z.unknown()) })
  .passthrough();

/** How warnings name a file: what it holds, and what an unreadable one means for the person. */
export interface ServerEntriesFileLabels {
  what: string;
  fallback: string;
}

/**
 * A `{ version: 1, servers: { <serverId>: entry } }` file of per-server decisions (sampling
 * consent, app grants), with its change listeners. A missing file is empty; an unreadable one
 * warns and is empty; an entry that fails its schema loses only itself. Keys other than
 * `version` and `servers` survive rewrites, so a newer build's additions are not lost.
 */
export class ServerEntriesFile<E> {
  private readonly listeners = new Set<() => void>();

  private constructor(
    readonly entries: Map<string, E>,
    private readonly writer: SerialWriter | undefined,
    private readonly extra: Record<string, unknown>,
  ) {}

  /** Load `path`, keeping the entries `entrySchema` accepts. */
  static async open<E>(
    path: string,
    entrySchema: z.ZodType<E>,
    labels: ServerEntriesFileLabels,
    warn: (message: string) => void,
  ): Promise<ServerEntriesFile<E>> {
    const entries = new Map<string, E>();
    let extra: Record<string, unknown> = {};
    try {
      const parsed = fileSchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
      if (!parsed.success) warn(`${labels.what} ${path} are not in the expected shape; ${labels.fallback}`);
      else {
        const { version: _v, servers: raw, ...rest } = parsed.data;
        extra = rest;
        for (const [id, value] of Object.entries(raw)) {
          const entry = entrySchema.safeParse(value);
          if (entry.success) entries.set(id, entry.data);
        }
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT')
        warn(
          `${labels.what} ${path} could not be read (${code ?? (error as Error).message}); ${labels.fallback}`,
        );
    }
    return new ServerEntriesFile(entries, new SerialWriter(path), extra);
  }

  /** Entries that live only in memory (CLI one-shots, tests). */
  static inMemory<E>(): ServerEntriesFile<E> {
    return new ServerEntriesFile(new Map<string, E>(), undefined, {});
  }

  /** Called on every `notify`. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tell the listeners something changed. */
  notify(): void {
    for (const l of [...this.listeners])
      try {
        l();
      } catch {
        // A listener's failure is its own.
      }
  }

  /** Write the entries as they are now (queued behind earlier writes). */
  persist(): Promise<void> {
    const servers = Object.fromEntries(this.entries);
    return (
      this.writer?.write(`${JSON.stringify({ ...this.extra, version: 1, servers }, null, 2)}\n`) ??
      Promise.resolve()
    );
  }

  /** After a change to `entries`: tell the listeners at once, then write. */
  changed(): Promise<void> {
    this.notify();
    return this.persist();
  }

  /** Resolves once every queued write has finished. */
  flush(): Promise<void> {
    return this.writer?.flush() ?? Promise.resolve();
  }
}
