/** The tool-argument path walker: which strings count as paths, and which of those lie outside the roots. */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import {
  argumentPath,
  argumentStrings,
  pathsOutsideRoots,
} from '../../electron/host/roots/argument-paths.js';

describe('argumentPath: the whole trimmed string must look like a path', () => {
  const home = '/home/someone';
  const cases: [string, string | undefined][] = [
    ['/etc/passwd', '/etc/passwd'],
    ['  /etc/passwd  ', '/etc/passwd'],
    ['/', '/'],
    ['/Users/me/My Documents/a.txt', '/Users/me/My Documents/a.txt'],
    ['C:\\Windows\\win.ini', 'C:\\Windows\\win.ini'],
    ['c:/data/x', 'c:/data/x'],
    ['\\\\server\\share\\x', '\\\\server\\share\\x'],
    ['~', home],
    ['~/notes/a.md', join(home, 'notes/a.md')],
    ['file:///etc/passwd', 'file:///etc/passwd'],
    ['FILE://host/x', 'FILE://host/x'],
    ['https://example.com/etc/passwd', undefined],
    ['mailto:a@b.c', undefined],
    ['notes/a.txt', undefined],
    ['./a.txt', undefined],
    ['../../etc/passwd', undefined],
    ['~other/x', undefined],
    ['see /etc/passwd for the users', undefined],
    ['/etc/passwd\nand more lines', undefined],
    ['', undefined],
    ['hello world', undefined],
    [`/${'a'.repeat(5000)}`, undefined],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input.length > 60 ? `${input.slice(0, 20)}…` : input)} -> ${expected ?? 'not a path'}`, () => {
      assert.equal(argumentPath(input, home), expected);
    });
  }
});

describe('argumentStrings', () => {
  it('collects string values at any depth, never keys or other types', () => {
    const args = {
      a: 'x',
      n: 1,
      b: true,
      z: null,
      '/etc/key-name': 'v',
      nested: { list: ['y', { deep: [[['z']]] }] },
    };
    assert.deepEqual(argumentStrings(args), ['x', 'v', 'y', 'z']);
  });
  it('survives nesting far deeper than any real argument', () => {
    let value: unknown = '/etc/passwd';
    for (let i = 0; i < 10_000; i++) value = { v: [value] };
    assert.deepEqual(argumentStrings(value), ['/etc/passwd']);
  });
});

describe('pathsOutsideRoots', () => {
  let base: string;
  let root: string;
  let outside: string;
  const roots = () => [{ uri: pathToFileURL(root).href }];

  before(async () => {
    // realpath: the temp dir may sit behind a symlink (macOS /var -> /private/var).
    base = await realpath(await mkdtemp(join(tmpdir(), 'argument-paths-')));
    root = join(base, 'shared');
    outside = join(base, 'private');
    await mkdir(join(root, 'notes'), { recursive: true });
    await mkdir(outside);
    await writeFile(join(root, 'notes', 'a.txt'), 'a');
    await writeFile(join(outside, 'secret.txt'), 's');
    await symlink(outside, join(root, 'link-out'));
  });
  after(() => rm(base, { recursive: true, force: true }));

  const cases: {
    name: string;
    args: () => unknown;
    outside: (string | (() => string))[];
    home?: () => string;
  }[] = [
    { name: 'an absolute path inside', args: () => ({ path: join(root, 'notes', 'a.txt') }), outside: [] },
    { name: 'the root itself', args: () => ({ path: root }), outside: [] },
    { name: 'a new file inside', args: () => ({ path: join(root, 'notes', 'new.txt') }), outside: [] },
    { name: 'an absolute path outside', args: () => ({ path: '/etc/passwd' }), outside: ['/etc/passwd'] },
    { name: 'the file system root', args: () => ({ path: '/' }), outside: ['/'] },
    {
      name: 'a `..` escape',
      args: () => ({ path: `${root}/notes/../../private/secret.txt` }),
      outside: [() => `${root}/notes/../../private/secret.txt`],
    },
    {
      name: 'a symlink inside a root pointing out',
      args: () => ({ path: join(root, 'link-out', 'secret.txt') }),
      outside: [() => join(root, 'link-out', 'secret.txt')],
    },
    {
      name: 'a sibling sharing the prefix',
      args: () => ({ path: `${root}-evil/x` }),
      outside: [() => `${root}-evil/x`],
    },
    {
      name: 'a file:// URI inside',
      args: () => ({ uri: pathToFileURL(join(root, 'notes', 'a.txt')).href }),
      outside: [],
    },
    {
      name: 'a file:// URI outside',
      args: () => ({ uri: 'file:///etc/passwd' }),
      outside: ['file:///etc/passwd'],
    },
    {
      name: 'a file:// URI naming another host',
      args: () => ({ uri: 'file://fileserver/share/x' }),
      outside: ['file://fileserver/share/x'],
    },
    { name: '~ expanding inside', args: () => ({ path: '~/notes/a.txt' }), home: () => root, outside: [] },
    {
      name: '~ expanding outside',
      args: () => ({ path: '~/secret.txt' }),
      home: () => outside,
      outside: ['~/secret.txt'],
    },
    {
      name: '~/.. escaping the root',
      args: () => ({ path: '~/../private' }),
      home: () => root,
      outside: ['~/../private'],
    },
    {
      name: 'nested objects and arrays',
      args: () => ({
        ops: [
          { from: join(root, 'notes', 'a.txt'), to: '/tmp/../etc/x' },
          { files: ['/var/log/syslog', 'relative.txt'] },
        ],
      }),
      outside: ['/tmp/../etc/x', '/var/log/syslog'],
    },
    {
      name: 'URLs are not paths',
      args: () => ({ url: 'https://example.com/etc/passwd', ws: 'wss://x/y' }),
      outside: [],
    },
    {
      name: 'relative paths are not checked',
      args: () => ({ path: '../../etc/passwd', other: 'notes/a.txt' }),
      outside: [],
    },
    {
      name: 'a path inside prose is not a path',
      args: () => ({ message: 'please read /etc/passwd for me' }),
      outside: [],
    },
    {
      name: 'the same path twice is named once',
      args: () => ({ a: '/etc/hosts', b: ['/etc/hosts', ' /etc/hosts '] }),
      outside: ['/etc/hosts'],
    },
    {
      name: 'a Windows drive path on this machine',
      args: () => ({ path: 'C:\\Windows\\win.ini' }),
      outside: ['C:\\Windows\\win.ini'],
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const found = await pathsOutsideRoots(c.args(), roots(), c.home ? { home: c.home() } : {});
      assert.deepEqual(
        found,
        c.outside.map((o) => (typeof o === 'string' ? o : o())),
      );
    });
  }

  it('with no folders shared nothing is restricted', async () => {
    assert.deepEqual(await pathsOutsideRoots({ path: '/etc/passwd', uri: 'file:///etc/shadow' }, []), []);
  });

  it('any of several roots will do', async () => {
    const both = [...roots(), { uri: pathToFileURL(outside).href }];
    assert.deepEqual(
      await pathsOutsideRoots({ a: join(outside, 'secret.txt'), b: join(root, 'link-out') }, both),
      [],
    );
  });
});
