import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Write a file so that a crash at any point leaves either the old content or the new one,
 * never a half-written file: write a sibling temp file, fsync it, rename over the target.
 */
export async function writeFileAtomic(path: string, data: string, mode = 0o600): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(tmp, 'w', mode);
  try {
    await handle.writeFile(data, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(tmp, path);
  } catch (error) {
    await unlink(tmp).catch(() => undefined);
    throw error;
  }
}

/** Serialises writes to one file so a later write never lands before an earlier one. */
export class SerialWriter {
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly path: string) {}

  write(data: string): Promise<void> {
    const next = this.chain.then(() => writeFileAtomic(this.path, data));
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** Resolves once every queued write has finished. */
  flush(): Promise<void> {
    return this.chain;
  }
}
