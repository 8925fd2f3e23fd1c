import assert from 'node:assert/strict';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { normalizeRoot, RootsStore } from '../../electron/host/roots/roots-store.js';
import { HostFailure } from '../../electron/host/util/errors.js';
import { tempDir } from '../helpers/temp-dir.js';

function refusal(fn: () => unknown): HostFailure {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof HostFailure, String(error));
    return error;
  }
  assert.fail('expected a refusal');
}

describe('root validation', () => {
  it('turns an absolute path into a file:// URL', () => {
    assert.deepEqual(normalizeRoot({ uri: '/home/me/My Project', name: 'proj' }), {
      uri: 'file:///home/me/My%20Project',
      name: 'proj',
    });
  });

  it('keeps a file:// URI, normalised by URL parsing', () => {
    assert.deepEqual(normalizeRoot({ uri: 'file:///srv/data/../data' }), { uri: 'file:///srv/data' });
  });

  it('refuses relative paths, other schemes and malformed URIs with a clear message', () => {
    for (const uri of ['relative/dir', './here', 'https://example.com/x', 'ftp://h/x', 'file://[bad']) {
      const error = refusal(() => normalizeRoot({ uri }));
      assert.equal(error.code, 'invalid_root');
      assert.match(error.message, /absolute path|file:\/\/ URI/, error.message);
    }
  });

  it('refuses a multi-line name', () => {
    assert.equal(refusal(() => normalizeRoot({ uri: '/a', name: 'x\ny' })).code, 'invalid_root');
  });
});

describe('RootsStore', () => {
  it('in memory: set, list (a copy), onChange, duplicates dropped, no event for a no-op', async () => {
    const store = RootsStore.inMemory(['/a'].map((uri) => ({ uri })));
    assert.deepEqual(store.list(), [{ uri: 'file:///a' }]);
    const seen: string[][] = [];
    const off = store.onChange((roots) => seen.push(roots.map((r) => r.uri)));
    await store.set([{ uri: '/b', name: 'B' }, { uri: 'file:///b' }, { uri: '/c' }]);
    assert.deepEqual(store.list(), [{ uri: 'file:///b', name: 'B' }, { uri: 'file:///c' }]);
    await store.set([{ uri: '/b', name: 'B' }, { uri: '/c' }]);
    assert.deepEqual(seen, [['file:///b', 'file:///c']]);
    store.list().pop();
    assert.equal(store.list().length, 2);
    off();
  });

  it('a refused entry leaves the list untouched', async () => {
    const store = RootsStore.inMemory([{ uri: '/keep' }]);
    await assert.rejects(
      store.set([{ uri: '/ok' }, { uri: 'nope' }]),
      (e: unknown) => e instanceof HostFailure && e.code === 'invalid_root',
    );
    assert.deepEqual(store.list(), [{ uri: 'file:///keep' }]);
  });

  it('file-backed: persists atomically and reloads', async () => {
    const dir = await tempDir();
    const path = join(dir, 'roots.json');
    const store = await RootsStore.open(path);
    assert.deepEqual(store.list(), []);
    await store.set([{ uri: dir, name: 'here' }]);
    const again = await RootsStore.open(path);
    assert.deepEqual(again.list(), [{ uri: pathToFileURL(dir).href, name: 'here' }]);
    assert.deepEqual(JSON.parse(await readFile(path, 'utf8')), {
      roots: [{ uri: pathToFileURL(dir).href, name: 'here' }],
    });
    assert.deepEqual(
      (await readdir(dir)).filter((f) => f.endsWith('.tmp')),
      [],
      'no temp files left behind',
    );
  });

  it('a corrupt file gives an empty list and a warning, and is kept aside', async () => {
    const dir = await tempDir();
    const path = join(dir, 'roots.json');
    for (const junk of ['{not json', '{"roots":[{"uri":"relative"}]}', '[1,2]']) {
      await writeFile(path, junk);
      const warnings: string[] = [];
      const store = await RootsStore.open(path, (m) => warnings.push(m));
      assert.deepEqual(store.list(), []);
      assert.equal(warnings.length, 1);
      assert.match(warnings[0] ?? '', /unreadable/);
      const aside = (await readdir(dir)).filter((f) => f.startsWith('roots.json.corrupt-'));
      assert.ok(aside.length >= 1, 'the bad file is kept');
      assert.ok(!(await readdir(dir)).includes('roots.json'), 'and moved out of the way');
      for (const f of aside) await rm(join(dir, f));
    }
  });
});
