/**
 * The sandbox's plan, without running it: which paths bwrap mounts and how (roots read-write,
 * homes hidden, /tmp private, a server's package tree read-only), the macOS profile's text,
 * the refusal when no sandbox is available, and the config field's place in the launch key.
 * Real directories in a temp dir stand in for a home, a root and an installed package.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { launchKey } from '../../electron/host/config/launch-key.js';
import { bwrapArgs } from '../../electron/host/connection/sandbox/bwrap-args.js';
import { sandboxLaunch, sandboxStateOf } from '../../electron/host/connection/sandbox/sandbox-launch.js';
import { sandboxLayout, type LayoutInput } from '../../electron/host/connection/sandbox/sandbox-layout.js';
import { sbplProfile } from '../../electron/host/connection/sandbox/sbpl-profile.js';
import { HostFailure } from '../../electron/host/util/errors.js';
import { stdioServerConfigSchema } from '../../shared/domain/server-config.js';

/** The pairs `flag a b` in an argv, e.g. every `--bind SRC DEST` as [SRC, DEST, index]. */
function mounts(argv: string[], flag: string): { path: string; at: number }[] {
  const found: { path: string; at: number }[] = [];
  argv.forEach((a, i) => {
    if (a === flag) found.push({ path: argv[i + 1], at: i });
  });
  return found;
}

describe('sandbox plan', () => {
  let base: string;
  let home: string;
  let hostHome: string;
  let root: string;
  let pkg: string;
  let script: string;

  before(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'sandbox-plan-')));
    home = join(base, 'home');
    hostHome = join(base, 'host-home');
    root = join(base, 'shared');
    pkg = join(base, 'app');
    script = join(pkg, 'node_modules', '@acme', 'server', 'dist', 'index.js');
    await mkdir(join(pkg, 'node_modules', '@acme', 'server', 'dist'), { recursive: true });
    await writeFile(join(pkg, 'package.json'), '{}');
    await writeFile(join(pkg, 'node_modules', '@acme', 'server', 'package.json'), '{}');
    await writeFile(script, '');
    await mkdir(home);
    await mkdir(hostHome);
    await mkdir(root);
    await writeFile(join(home, 'server.json'), '{}');
  });
  after(() => rm(base, { recursive: true, force: true }));

  const input = (over: Partial<LayoutInput> = {}): LayoutInput => ({
    command: process.execPath,
    args: [script],
    env: { HOME: home, PATH: '/usr/bin:/bin' },
    roots: [pathToFileURL(root).href],
    system: ['/usr', '/etc'],
    hostHome,
    hostCwd: pkg,
    ...over,
  });

  it('binds each root read-write, hides the homes, keeps /tmp private and the package tree read-only', () => {
    const layout = sandboxLayout(input());
    const argv = bwrapArgs(layout, process.execPath, [script]);
    assert.deepEqual(layout.readWrite, [root]);
    assert.equal(layout.roots, 1);
    assert.deepEqual(
      mounts(argv, '--bind').map((m) => m.path),
      [root],
    );
    assert.deepEqual(
      mounts(argv, '--tmpfs')
        .map((m) => m.path)
        .sort(),
      ['/tmp', home, hostHome].sort(),
    );
    // The top-most directory holding package.json/node_modules, not the script's own folder.
    const ro = mounts(argv, '--ro-bind').map((m) => m.path);
    assert.ok(ro.includes(pkg), `package tree ${pkg} bound read-only: ${ro.join(' ')}`);
    assert.ok(
      !ro.some((p) => p.startsWith(join(pkg, 'node_modules'))),
      'nothing below the package tree is bound separately',
    );
    assert.ok(
      !ro.includes(home) && !ro.includes(hostHome) && !ro.includes(base),
      'no home (or its parent) is bound',
    );
    // The root sits inside /tmp (a temp dir): it must be mounted after the private /tmp.
    const tmpAt = mounts(argv, '--tmpfs').find((m) => m.path === '/tmp')!.at;
    assert.ok(mounts(argv, '--bind')[0].at > tmpAt, 'the root is mounted on top of the private /tmp');
    for (const flag of ['--unshare-pid', '--die-with-parent', '--new-session', '--dev', '--proc'])
      assert.ok(argv.includes(flag), flag);
    assert.deepEqual(argv.slice(argv.indexOf('--chdir'), argv.indexOf('--chdir') + 2), ['--chdir', pkg]);
    assert.deepEqual(argv.slice(-3), ['--', process.execPath, script]);
  });

  it('a file argument inside a home exposes that file only, never the home', () => {
    const conf = join(home, 'server.json');
    const layout = sandboxLayout(input({ args: [script, `--config=${conf}`] }));
    assert.ok(layout.readOnly.includes(conf));
    assert.ok(!layout.readOnly.includes(home));
    const argv = bwrapArgs(layout, process.execPath, []);
    assert.ok(
      mounts(argv, '--ro-bind').find((m) => m.path === conf)!.at >
        mounts(argv, '--tmpfs').find((m) => m.path === home)!.at,
    );
  });

  it('a root inside a home is mounted over the hidden home; a home shared as a root is not hidden', () => {
    const inside = join(home, 'notes');
    return mkdir(inside).then(() => {
      const layout = sandboxLayout(input({ roots: [pathToFileURL(inside).href] }));
      const argv = bwrapArgs(layout, process.execPath, []);
      assert.ok(layout.hidden.includes(home));
      assert.ok(
        mounts(argv, '--bind').find((m) => m.path === inside)!.at >
          mounts(argv, '--tmpfs').find((m) => m.path === home)!.at,
      );
      const shared = sandboxLayout(input({ roots: [pathToFileURL(home).href] }));
      assert.ok(!shared.hidden.includes(home));
      assert.ok(shared.readWrite.includes(home));
    });
  });

  it('skips roots that are missing and never binds the cwd when it is a home', () => {
    const layout = sandboxLayout(input({ roots: [pathToFileURL(join(base, 'gone')).href], cwd: home }));
    assert.equal(layout.roots, 0);
    assert.match(layout.skipped.join(), /does not exist/);
    assert.ok(!layout.readOnly.includes(home));
    assert.equal(layout.cwd, home, 'the hidden (empty) home is still a place to start in');
  });

  it('npx gets npm’s cache read-write under its HOME', () => {
    const layout = sandboxLayout(input({ command: 'npx', args: ['-y', '@acme/server'] }));
    assert.ok(layout.readWrite.includes(join(home, '.npm')));
  });

  it('the macOS profile denies by default and allows the roots and the private temp dir', () => {
    const quoted = join(base, 'with "quote"');
    const layout = { ...sandboxLayout(input()), readWrite: [root, quoted] };
    const profile = sbplProfile(layout, '/private/var/folders/x/T/mcp-desk-sandbox-1');
    assert.match(profile, /^\(version 1\)\n\(deny default\)/);
    assert.ok(profile.includes(`(subpath "${root}")`));
    assert.ok(profile.includes('(subpath "/private/var/folders/x/T/mcp-desk-sandbox-1")'));
    assert.ok(profile.includes(`(subpath "${quoted.replace(/"/g, '\\"')}")`));
    assert.ok(!profile.includes(`"${home}"`), 'the home is not allowed');
  });

  it('refuses to run unsandboxed when no sandbox is available', () => {
    const plan = { kind: 'stdio' as const, command: process.execPath, args: [], env: {} };
    assert.throws(
      () => sandboxLaunch(plan, [], { ok: false, reason: 'no bwrap' }),
      (e: unknown) =>
        e instanceof HostFailure && e.code === 'sandbox_unavailable' && /no bwrap/.test(e.message),
    );
    assert.deepEqual(
      sandboxStateOf(true, () => ({ ok: false, reason: 'no bwrap' }), undefined, 0),
      { kind: 'unavailable', reason: 'no bwrap' },
    );
    assert.deepEqual(
      sandboxStateOf(false, () => assert.fail('not asked when off'), undefined, 0),
      { kind: 'off' },
    );
  });

  it('the config field is strict and turning it on changes the launch key', () => {
    const config = { command: 'node', args: ['x.js'] };
    assert.equal(stdioServerConfigSchema.safeParse({ ...config, sandbox: true }).success, true);
    assert.equal(stdioServerConfigSchema.safeParse({ ...config, sandbox: 'yes' }).success, false);
    assert.notEqual(launchKey({ ...config, sandbox: true }), launchKey(config));
    assert.equal(launchKey({ ...config, sandbox: false }), launchKey(config), 'existing keys stay stable');
  });
});
