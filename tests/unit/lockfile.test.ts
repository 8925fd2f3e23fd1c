// `npm ci` refuses a lockfile that leaves any dependency edge unresolved, optional platform
// binaries included. npm install writes such a lockfile without a word when the registry lacks
// one of those binaries (it did: unrs-resolver's darwin and win32 builds 404 on the registry CI
// reaches, and CI failed in 3 s). This walks every edge of package-lock.json the way Node
// resolves a package, so the break shows up here, named, before CI.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

interface LockEntry {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  link?: boolean;
}
interface Lockfile {
  lockfileVersion: number;
  packages: Record<string, LockEntry>;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where Node would find `name` from the package at `from` (a lockfile key), or undefined. */
function resolveInLock(lock: Lockfile, from: string, name: string): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = dir === '' ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (dir === '') return undefined;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut < 0 ? '' : dir.slice(0, cut);
  }
}

/** Every `package -> dependency` edge the lockfile leaves unresolved. */
function unresolvedEdges(lock: Lockfile, root: string): string[] {
  const missing: string[] = [];
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (entry.link) continue;
    const edges = {
      ...entry.dependencies,
      ...entry.optionalDependencies,
      ...(key === '' ? entry.devDependencies : {}),
    };
    for (const name of Object.keys(edges)) {
      if (!resolveInLock(lock, key, name)) missing.push(`${key === '' ? root : key} -> ${name}`);
    }
  }
  return missing;
}

function readLock(file: string): Lockfile {
  return JSON.parse(readFileSync(path.join(repoRoot, file), 'utf8')) as Lockfile;
}

describe('package-lock.json: every dependency edge resolves (what npm ci demands)', () => {
  for (const file of ['package-lock.json', 'tools/conformance/package-lock.json']) {
    it(file, () => {
      const lock = readLock(file);
      assert.ok(
        lock.lockfileVersion >= 2,
        `${file} has no "packages" section (lockfileVersion ${lock.lockfileVersion})`,
      );
      assert.deepEqual(unresolvedEdges(lock, file), []);
    });
  }

  it('the check itself finds a missing optional binary and a nested one', () => {
    const lock: Lockfile = {
      lockfileVersion: 3,
      packages: {
        '': { devDependencies: { a: '1' } },
        'node_modules/a': { optionalDependencies: { '@x/bin-linux': '1', '@x/bin-darwin': '1' } },
        'node_modules/a/node_modules/b': { dependencies: { '@x/bin-linux': '1', c: '1' } },
        'node_modules/@x/bin-linux': {},
      },
    };
    assert.deepEqual(unresolvedEdges(lock, 'root'), [
      'node_modules/a -> @x/bin-darwin',
      'node_modules/a/node_modules/b -> c',
    ]);
  });
});
