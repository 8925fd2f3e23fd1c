import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { MAX_BUNDLE_FILE_BYTES, type BundleSignature } from '../../../shared/domain/bundles.js';
import { HostFailure } from '../util/errors.js';
import { readManifest, type CheckedManifest } from './bundle-manifest.js';
import { unpackBundle, verifySignature } from './mcpb-package.js';

/** One bundle unpacked into staging and checked, waiting for Install or Cancel. */
export interface StagedBundle {
  id: string;
  dir: string;
  fileName: string;
  checked: CheckedManifest;
  signature: BundleSignature;
}

/** Previews kept at once; the oldest is discarded past this (a person rarely has two open). */
const MAX_STAGED = 8;

/**
 * `<bundles>/.staging/<run>/<id>`: where a bundle is unpacked before the person confirms.
 * Nothing is written outside it; a bundle refused for any reason leaves nothing behind. Each
 * process stages under its own run folder (the desktop app and a CLI may share the data
 * folder); a run folder whose process is gone (a crash) is removed when the next one starts.
 */
export class BundleStaging {
  private readonly staged = new Map<string, StagedBundle>();
  private readonly root: string;

  constructor(private readonly stagingDir: string) {
    this.root = join(stagingDir, `${process.pid}-${randomBytes(4).toString('hex')}`);
  }

  /** Remove this run's staged bundles and those of runs that are no longer alive. */
  async clear(): Promise<void> {
    this.staged.clear();
    await rm(this.root, { recursive: true, force: true });
    let runs: string[] = [];
    try {
      runs = await readdir(this.stagingDir);
    } catch {
      // No staging folder: nothing to clear.
    }
    for (const run of runs)
      if (!isAlive(Number(run.split('-')[0])))
        await rm(join(this.stagingDir, run), { recursive: true, force: true });
    await this.tidy();
  }

  /** Unpack and check a .mcpb at `file`; throws bundle_invalid with the reason, leaving nothing. */
  async stageFile(file: string, fileName: string): Promise<StagedBundle> {
    let size: number;
    try {
      const info = await stat(file);
      if (!info.isFile()) throw new Error('not a file');
      size = info.size;
    } catch {
      throw new HostFailure('bundle_invalid', `cannot read ${fileName}: no such file`);
    }
    if (size > MAX_BUNDLE_FILE_BYTES)
      throw new HostFailure(
        'bundle_invalid',
        `${fileName} is larger than ${MAX_BUNDLE_FILE_BYTES >> 20} MiB`,
      );
    return this.stage(fileName, async () => file);
  }

  /** Stage a bundle sent as bytes (browser mode's file input): written into staging first. */
  async stageBytes(fileName: string, bytes: Buffer): Promise<StagedBundle> {
    return this.stage(fileName, async (id) => {
      const file = join(this.root, `${id}.mcpb`);
      await writeFile(file, bytes);
      return file;
    });
  }

  /** A staged bundle by id; throws bundle_not_found. */
  get(id: string): StagedBundle {
    const s = this.staged.get(id);
    if (!s) throw new HostFailure('bundle_not_found', 'that bundle preview is gone: open the file again');
    return s;
  }

  /** Stop tracking a staged bundle whose folder was moved away (installed); tidy what is empty. */
  async release(id: string): Promise<void> {
    this.staged.delete(id);
    await this.tidy();
  }

  /** Remove a staged bundle's files. */
  async discard(id: string): Promise<void> {
    const s = this.staged.get(id);
    this.staged.delete(id);
    if (s) await rm(s.dir, { recursive: true, force: true });
    await this.tidy();
  }

  private async stage(fileName: string, source: (id: string) => Promise<string>): Promise<StagedBundle> {
    const id = randomBytes(12).toString('base64url');
    const dir = join(this.root, id);
    const upload = join(this.root, `${id}.mcpb`);
    try {
      await mkdir(dir, { recursive: true });
      const file = await source(id);
      const signature = await verifySignature(file);
      await unpackBundle(file, dir);
      const checked = await readManifest(dir);
      const staged: StagedBundle = { id, dir, fileName, checked, signature };
      this.staged.set(id, staged);
      for (const old of [...this.staged.keys()].slice(0, Math.max(0, this.staged.size - MAX_STAGED)))
        await this.discard(old);
      return staged;
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      await rm(upload, { force: true });
      await this.tidy();
      throw error;
    } finally {
      await rm(upload, { force: true });
    }
  }

  /** Remove the run's folder, staging and the bundles folder above them, when they hold nothing. */
  private async tidy(): Promise<void> {
    for (const d of [this.root, this.stagingDir, dirname(this.stagingDir)])
      await rmdir(d).catch(() => undefined);
  }
}

/** Whether a process with that id runs (signal 0 only checks). */
function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
