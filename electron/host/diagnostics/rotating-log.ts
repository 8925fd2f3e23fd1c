import { appendFileSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Options for RotatingLog. */
export interface RotatingLogOptions {
  /** The live file's name inside the folder (`main.log`). */
  fileName?: string;
  /** Rotate once the live file would grow past this many bytes. */
  maxBytes?: number;
  /** How many files to keep in all, the live one included (`main.log`, `main.log.1`, …). */
  keep?: number;
  /** Told about the first failed write only (a full disk or a read-only folder); later ones are silent. */
  onFailure?: (error: Error) => void;
}

const DEFAULT_MAX_BYTES = 1024 * 1024;
const DEFAULT_KEEP = 5;

/**
 * An append-only text log in one folder, rotated by size: `main.log` is renamed to
 * `main.log.1` (and so on, the oldest deleted) before it would outgrow `maxBytes`. Each entry
 * is one synchronous O_APPEND write, so entries from this process or another one writing the
 * same file never interleave, and an entry written just before a crash is on disk. It never
 * throws: a log that cannot be written must not take down what it logs.
 */
export class RotatingLog {
  readonly path: string;
  private readonly maxBytes: number;
  private readonly keep: number;
  private size: number | undefined;
  private failed = false;
  private reported = false;

  constructor(
    readonly dir: string,
    private readonly options: RotatingLogOptions = {},
  ) {
    this.path = join(dir, options.fileName ?? 'main.log');
    this.maxBytes = Math.max(1, options.maxBytes ?? DEFAULT_MAX_BYTES);
    this.keep = Math.max(1, options.keep ?? DEFAULT_KEEP);
  }

  /** Append one entry (a trailing newline is added); true if it reached the file. */
  write(entry: string): boolean {
    const text = entry.endsWith('\n') ? entry : `${entry}\n`;
    const bytes = Buffer.byteLength(text);
    try {
      if (this.size === undefined || this.failed) this.size = this.currentSize();
      if (this.size > 0 && this.size + bytes > this.maxBytes) this.rotate();
      appendFileSync(this.path, text, { mode: 0o600 });
      this.size += bytes;
      this.failed = false;
      return true;
    } catch (error) {
      this.failed = true;
      if (!this.reported) {
        this.reported = true;
        this.options.onFailure?.(error instanceof Error ? error : new Error(String(error)));
      }
      return false;
    }
  }

  /** Every file of this log, newest first (those that exist). */
  files(): string[] {
    return [this.path, ...Array.from({ length: this.keep - 1 }, (_, i) => `${this.path}.${i + 1}`)];
  }

  private currentSize(): number {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    try {
      return statSync(this.path).size;
    } catch {
      return 0;
    }
  }

  private rotate(): void {
    const files = this.files();
    // keep = 1: the live file simply starts over.
    rmSync(files[files.length - 1] ?? this.path, { force: true });
    for (let i = files.length - 2; i >= 0; i--) {
      const from = files[i];
      const to = files[i + 1];
      if (!from || !to) continue;
      try {
        renameSync(from, to);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    this.size = 0;
  }
}
