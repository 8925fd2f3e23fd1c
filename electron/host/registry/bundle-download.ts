import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { BundlePreview } from '../../../shared/domain/bundles.js';
import { HostFailure } from '../util/errors.js';

/**
 * Downloading a registry package of type `mcpb` for the bundle flow. The spec says a client
 * MUST check `fileSha256` before running the package: the file is hashed as it streams in and
 * kept only when the hash matches; on a mismatch nothing is left on disk.
 */

/** What turns a downloaded bundle into the bundle flow's preview (wired in by the composition root). */
export interface BundleInspector {
  inspectFile(path: string): Promise<BundlePreview>;
}

/** Limits of one download (tests shorten them). */
export interface DownloadOptions {
  maxBytes?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const DEFAULT_MAX_BYTES = 200 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 5 * 60_000;

/**
 * Download `url` into `dir` (created if needed) and check its SHA-256; resolves to the file's
 * path, named after the hash. Throws checksum_mismatch (and removes the file) on a wrong hash.
 */
export async function downloadBundle(
  url: string,
  sha256: string,
  dir: string,
  options: DownloadOptions = {},
): Promise<string> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const expected = sha256.toLowerCase();
  if (!/^[a-f0-9]{64}$/.test(expected))
    throw new HostFailure('server_json_invalid', 'the package fileSha256 is not a SHA-256 hex digest');
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, {
      signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
  } catch (error) {
    throw new HostFailure(
      'registry_unreachable',
      `The bundle at ${new URL(url).origin} cannot be downloaded`,
      {
        technical: (error as Error).message,
      },
    );
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel().catch(() => undefined);
    throw new HostFailure('registry_error', `The bundle download answered ${response.status}`);
  }
  await mkdir(dir, { recursive: true });
  const partial = join(dir, `.${randomUUID()}.part`);
  const hash = createHash('sha256');
  const file = createWriteStream(partial, { mode: 0o600 });
  let size = 0;
  try {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new HostFailure(
          'registry_error',
          `The bundle is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`,
        );
      }
      hash.update(value);
      if (!file.write(value)) await new Promise<void>((resolve) => file.once('drain', () => resolve()));
    }
    await new Promise<void>((resolve, reject) => {
      file.once('error', reject);
      file.end(() => resolve());
    });
    const actual = hash.digest('hex');
    if (actual !== expected)
      throw new HostFailure(
        'checksum_mismatch',
        'The downloaded bundle does not match the SHA-256 its server.json declares; it was deleted and not installed',
        { technical: `expected ${expected}, got ${actual}` },
      );
    const path = join(dir, `${actual}.mcpb`);
    await rename(partial, path);
    return path;
  } catch (error) {
    file.destroy();
    await rm(partial, { force: true });
    throw error;
  }
}
