/** isInsideRoots against traversal attempts, on a real temp tree with symlinks. */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { isInsideRoots } from '../../electron/host/roots/root-guard.js';

describe('isInsideRoots', () => {
  let base: string;
  let rootA: string;
  const roots = () => [{ uri: pathToFileURL(rootA).href }];

  before(async () => {
    // realpath: the temp dir itself may sit behind a symlink (macOS /var -> /private/var).
    base = await realpath(await mkdtemp(join(tmpdir(), 'root-guard-')));
    rootA = join(base, 'rootA');
    await mkdir(join(rootA, 'sub'), { recursive: true });
    await mkdir(join(base, 'rootA-evil'));
    await mkdir(join(rootA, 'café'));
    await writeFile(join(rootA, 'sub', 'in.txt'), 'in');
    await writeFile(join(base, 'secret.txt'), 'secret');
    await writeFile(join(base, 'rootA-evil', 'x.txt'), 'x');
    await symlink(join(base, 'secret.txt'), join(rootA, 'escape.txt'));
    await symlink(base, join(rootA, 'escape-dir'));
    await symlink(join(rootA, 'sub', 'in.txt'), join(base, 'link-in.txt'));
  });
  after(() => rm(base, { recursive: true, force: true }));

  const cases: { name: string; input: () => string; ok: boolean }[] = [
    { name: 'plain file inside', input: () => join(rootA, 'sub', 'in.txt'), ok: true },
    { name: 'file:// URI inside', input: () => pathToFileURL(join(rootA, 'sub', 'in.txt')).href, ok: true },
    { name: 'the root itself', input: () => rootA, ok: true },
    { name: 'root with trailing slash', input: () => `${rootA}/`, ok: true },
    { name: 'URI with trailing slash', input: () => `${pathToFileURL(rootA).href}/sub/`, ok: true },
    { name: 'non-existent file inside', input: () => join(rootA, 'sub', 'new', 'file.txt'), ok: true },
    { name: 'unicode folder inside', input: () => pathToFileURL(join(rootA, 'café', 'x')).href, ok: true },
    { name: '../ escape in a path', input: () => `${rootA}/sub/../../secret.txt`, ok: false },
    { name: '../ escape in a URI', input: () => `${pathToFileURL(rootA).href}/../secret.txt`, ok: false },
    {
      name: 'encoded %2e%2e escape',
      input: () => `${pathToFileURL(rootA).href}/%2e%2e/secret.txt`,
      ok: false,
    },
    {
      name: 'encoded %2E%2E%2f escape',
      input: () => `${pathToFileURL(rootA).href}/%2E%2E%2fsecret.txt`,
      ok: false,
    },
    { name: 'symlinked file out of the root', input: () => join(rootA, 'escape.txt'), ok: false },
    {
      name: 'symlinked dir out of the root',
      input: () => join(rootA, 'escape-dir', 'secret.txt'),
      ok: false,
    },
    {
      name: 'new file under a symlinked dir out',
      input: () => join(rootA, 'escape-dir', 'new.txt'),
      ok: false,
    },
    { name: 'symlink from outside into the root', input: () => join(base, 'link-in.txt'), ok: true },
    { name: 'sibling prefix /rootA-evil', input: () => join(base, 'rootA-evil', 'x.txt'), ok: false },
    { name: 'sibling prefix as URI', input: () => pathToFileURL(join(base, 'rootA-evil')).href, ok: false },
    { name: 'file://host/ URI', input: () => `file://evil.example${rootA}/sub/in.txt`, ok: false },
    { name: 'file://localhost/ URI', input: () => `file://localhost${rootA}/sub/in.txt`, ok: true },
    { name: 'non-file scheme', input: () => `https://example.com${rootA}/sub/in.txt`, ok: false },
    { name: 'relative path', input: () => 'sub/in.txt', ok: false },
    { name: 'parent of the root', input: () => base, ok: false },
  ];

  for (const c of cases) {
    it(c.name, async () => {
      const verdict = await isInsideRoots(c.input(), roots(), 'linux');
      assert.equal(verdict.ok, c.ok, `${c.input()} -> ${JSON.stringify(verdict)}`);
      if (verdict.ok) assert.ok(verdict.realPath.startsWith(rootA), verdict.realPath);
    });
  }

  it('no roots: nothing is inside', async () => {
    const verdict = await isInsideRoots(join(rootA, 'sub', 'in.txt'), [], 'linux');
    assert.equal(verdict.ok, false);
  });

  it('case-folds only on case-insensitive platforms', async () => {
    const upper = join(base, 'ROOTA', 'sub', 'in.txt');
    assert.equal((await isInsideRoots(upper, roots(), 'darwin')).ok, true);
    assert.equal((await isInsideRoots(upper, roots(), 'linux')).ok, false);
  });
});
