import { readFile } from 'node:fs/promises';
import { SerialWriter } from '../../util/atomic-write.js';

/** How many vectors one file keeps at most (about 25 MB of 768-dimension vectors). */
const MAX_VECTORS = 8000;

interface CacheFile {
  version: 1;
  /** Per embedding space (`provider:model`): fingerprint -> base64 of the float32 vector. */
  spaces: Record<string, Record<string, string>>;
}

/**
 * Tool vectors on disk, keyed by the embedding space and the tool's definition fingerprint
 * (tool-trust/fingerprint.ts): a restart, a reconnect or the same tool on another server
 * embeds nothing again, and a changed definition gets a new key by itself. Written
 * atomically; a file that cannot be read is treated as empty (it only costs requests).
 */
export class VectorCache {
  private data: CacheFile = { version: 1, spaces: {} };
  private loaded?: Promise<void>;
  private readonly writer?: SerialWriter;
  private dirty = false;

  constructor(private readonly path?: string) {
    if (path) this.writer = new SerialWriter(path);
  }

  private load(): Promise<void> {
    this.loaded ??= (async () => {
      if (!this.path) return;
      try {
        const parsed = JSON.parse(await readFile(this.path, 'utf8')) as Partial<CacheFile>;
        if (parsed.version === 1 && parsed.spaces && typeof parsed.spaces === 'object')
          this.data = parsed as CacheFile;
      } catch {
        // Missing or unreadable: start empty, the next save replaces it.
      }
    })();
    return this.loaded;
  }

  /** The cached vector of one fingerprint in one space. */
  async get(space: string, fingerprint: string): Promise<Float32Array | undefined> {
    await this.load();
    const b64 = this.data.spaces[space]?.[fingerprint];
    if (typeof b64 !== 'string') return undefined;
    const buf = Buffer.from(b64, 'base64');
    return new Float32Array(buf.buffer, buf.byteOffset, Math.floor(buf.byteLength / 4));
  }

  /** Keep a vector (until the file holds MAX_VECTORS: then new ones live in memory only). */
  async set(space: string, fingerprint: string, vector: readonly number[]): Promise<void> {
    await this.load();
    const total = Object.values(this.data.spaces).reduce((n, s) => n + Object.keys(s).length, 0);
    if (total >= MAX_VECTORS) return;
    const f32 = Float32Array.from(vector);
    (this.data.spaces[space] ??= {})[fingerprint] = Buffer.from(f32.buffer).toString('base64');
    this.dirty = true;
  }

  /** Write what changed since the last save. */
  async save(): Promise<void> {
    if (!this.writer || !this.dirty) return;
    this.dirty = false;
    await this.writer.write(JSON.stringify(this.data));
  }
}
