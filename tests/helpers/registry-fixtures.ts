import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The registry tests' fixtures: recorded server.json documents (tests/fixtures/registry, sources
 * in tests/fixtures/README.md) and the fixture npm package, packed with `npm pack` at test time.
 */

const DIR = new URL('../fixtures/registry/', import.meta.url);

/** A recorded server.json, parsed (a fresh copy each call, so a test may change it). */
export async function recorded(file: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(new URL(file, DIR), 'utf8')) as Record<string, unknown>;
}

/** The fixture npm package, packed: what the fake registry serves. */
export interface PackedPackage {
  name: string;
  version: string;
  bin: Record<string, string>;
  tarball: Buffer;
}

/** `npm pack` the fixture package (in a scratch copy, so nothing is written into the tree). */
export async function packFixturePackage(): Promise<PackedPackage> {
  const scratch = await mkdtemp(join(tmpdir(), 'mcp-desk-pack-'));
  try {
    const src = join(scratch, 'pkg');
    await cp(new URL('npm-package/', DIR), src, { recursive: true });
    await promisify(execFile)('npm', ['pack', '--silent', '--pack-destination', scratch], {
      cwd: src,
      env: { ...process.env, npm_config_cache: join(scratch, 'cache'), npm_config_update_notifier: 'false' },
    });
    const file = (await readdir(scratch)).find((f) => f.endsWith('.tgz'));
    if (!file) throw new Error('npm pack wrote no tarball');
    const manifest = JSON.parse(await readFile(join(src, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
      bin: Record<string, string>;
    };
    return { ...manifest, tarball: await readFile(join(scratch, file)) };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * The recorded npm entry (Context7's server.json) pointed at our fixture package on a local npm
 * registry: only identifier, version and registryBaseUrl change; its inputs stay as recorded.
 */
export async function npmEntryOn(
  npmRegistryUrl: string,
  pkg: PackedPackage,
): Promise<Record<string, unknown>> {
  const doc = await recorded('context7.server.json');
  const [first] = doc.packages as Record<string, unknown>[];
  Object.assign(first ?? {}, { identifier: pkg.name, version: pkg.version, registryBaseUrl: npmRegistryUrl });
  return doc;
}
