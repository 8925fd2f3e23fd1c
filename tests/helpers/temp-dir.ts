// The one temp-directory helper of the test suite. Every test file runs in its own process
// (node --test), so "when the process exits" is "when the file ends".
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Anything that runs cleanups later, such as host-harness's CleanupStack. */
export interface Deferrer {
  defer(fn: () => Promise<void> | void): void;
}

const leftAtExit = new Set<string>();
process.once('exit', () => {
  for (const dir of leftAtExit) rmSync(dir, { recursive: true, force: true });
});

/**
 * A fresh directory under the OS temp folder. With `cleanup` it is removed when that runs;
 * without, when the test file's process exits.
 */
export async function tempDir(cleanup?: Deferrer, prefix = 'mcp-desk-test-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  if (cleanup) cleanup.defer(() => rm(dir, { recursive: true, force: true }));
  else leftAtExit.add(dir);
  return dir;
}
