/**
 * Issue 29: `npm test` is the whole test command on a fresh Linux machine. With no Secret
 * Service session but gnome-keyring and D-Bus installed, scripts/test.mjs runs itself again in
 * the private session CI uses (.ci/keyring-session), so the keychain tests run instead of
 * skipping; without those programs it says once which packages to install and only the
 * keychain tests skip. Either way the last line stays the `N passed, N failed, N skipped`
 * summary CI reads. The runs here are real `node scripts/test.mjs` runs of one keychain file.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { keyringPlan, sessionEnv } from '../../scripts/keyring-session.mjs';
import { CleanupStack, REPO_ROOT, tempDir } from '../helpers/host-harness.js';

const LINUX = process.platform === 'linux';
const KEYCHAIN_FILE = 'tests/integration/keychain.test.ts';
const SUMMARY = /^(\d+) passed, (\d+) failed, (\d+) skipped$/;

/** A folder holding executables named `names` (they only need to exist), plus `node`. */
async function binDir(stack: CleanupStack, names: string[]): Promise<string> {
  const dir = join(await tempDir(stack), 'bin');
  await mkdir(dir);
  await symlink(process.execPath, join(dir, 'node'));
  for (const name of names) {
    await writeFile(join(dir, name), '#!/bin/sh\nexit 0\n');
    await chmod(join(dir, name), 0o755);
  }
  return dir;
}

/** What a fresh machine's shell does not have: a session bus, CI, our session, a test runner around it. */
const NOT_FRESH = [
  'DBUS_SESSION_BUS_ADDRESS',
  'GNOME_KEYRING_CONTROL',
  'CI',
  'MCP_DESK_TEST_KEYRING_SESSION',
  // Set by node --test in its files; a run that sees it refuses to start its own files.
  'NODE_TEST_CONTEXT',
];

/** This environment as a person's shell on a fresh machine has it. */
function freshEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!NOT_FRESH.includes(k)) env[k] = v;
  return { ...env, TEST_SKIP_BUILD: '1', ...extra };
}

/** `node scripts/test.mjs ...args` to completion: its output and exit code. */
function npmTest(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/test.mjs', ...args], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** The counts of the run's last line, which must be the summary. */
function summaryOf(out: string): { passed: number; failed: number; skipped: number } {
  const last = out.trimEnd().split('\n').at(-1) ?? '';
  const m = SUMMARY.exec(last);
  assert.ok(m, `the last line is not the summary: ${JSON.stringify(last)}\n${out.slice(-3000)}`);
  return { passed: Number(m[1]), failed: Number(m[2]), skipped: Number(m[3]) };
}

// Off Linux the module does nothing; its checks use symlinks and executable bits besides.
describe(
  'how npm test gets a Secret Service',
  { skip: LINUX ? false : 'only Linux starts a Secret Service' },
  () => {
    const stack = new CleanupStack();
    after(() => stack.run());

    it('plans: nothing to do off Linux or inside the session; start it, or say what is missing', async () => {
      const both = await binDir(stack, ['dbus-run-session', 'gnome-keyring-daemon']);
      const none = await binDir(stack, []);
      assert.deepEqual(await keyringPlan({ env: {}, platform: 'darwin' }), { kind: 'go on' });
      assert.deepEqual(
        await keyringPlan({ env: { MCP_DESK_TEST_KEYRING_SESSION: '1' }, platform: 'linux' }),
        {
          kind: 'go on',
        },
      );
      assert.deepEqual(await keyringPlan({ env: { PATH: both }, platform: 'linux' }), {
        kind: 'start',
        why: 'DBUS_SESSION_BUS_ADDRESS is not set',
      });
      assert.deepEqual(await keyringPlan({ env: { PATH: none }, platform: 'linux' }), {
        kind: 'without',
        why: 'DBUS_SESSION_BUS_ADDRESS is not set',
        missing: ['dbus-run-session', 'gnome-keyring-daemon'],
      });
      // A session bus address where nothing answers is no Secret Service either (the library is asked).
      const dead = await keyringPlan({
        env: { PATH: both, DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(none, 'no-bus')}` },
        platform: 'linux',
      });
      assert.equal(dead.kind, 'start');
    });

    it("keeps the person's npm config and cache across the session's throwaway HOME", async () => {
      const home = await tempDir(stack);
      await writeFile(join(home, '.npmrc'), 'fund=false\n');
      const env = sessionEnv({ HOME: home, PATH: '/bin' });
      assert.equal(env.npm_config_userconfig, join(home, '.npmrc'));
      assert.equal(env.npm_config_cache, join(home, '.npm'));
      assert.equal(env.MCP_DESK_TEST_KEYRING_SESSION, '1');
      const own = sessionEnv({ HOME: home, npm_config_cache: '/elsewhere' });
      assert.equal(own.npm_config_cache, '/elsewhere', 'a cache the person chose is kept');
    });
  },
);

describe('npm test on a Linux machine without a Secret Service session', { timeout: 300_000 }, () => {
  const stack = new CleanupStack();
  after(() => stack.run());
  const skip = LINUX ? false : 'only Linux has a Secret Service to start';

  it(
    'with gnome-keyring and D-Bus installed: runs the keychain tests in a private session',
    { skip },
    async (t) => {
      const plan = await keyringPlan({ env: freshEnv() });
      if (plan.kind !== 'start')
        return t.skip(
          `dbus-run-session or gnome-keyring-daemon is not installed here (${JSON.stringify(plan)}): the next test covers that`,
        );
      const run = await npmTest([KEYCHAIN_FILE], freshEnv());
      assert.equal(run.code, 0, run.out.slice(-3000));
      assert.equal(run.out.match(/running in a private D-Bus session with gnome-keyring/g)?.length, 1);
      const counts = summaryOf(run.out);
      assert.equal(counts.failed, 0);
      assert.equal(counts.skipped, 0, `no keychain test may skip:\n${run.out.slice(-3000)}`);
      assert.ok(counts.passed >= 3);
    },
  );

  it(
    'without them: says once which packages to install, and only the keychain tests skip',
    { skip },
    async () => {
      const bin = await binDir(stack, []);
      const run = await npmTest([KEYCHAIN_FILE], freshEnv({ PATH: bin }));
      assert.equal(run.code, 0, run.out.slice(-3000));
      assert.equal(
        run.out.match(/sudo apt-get install gnome-keyring dbus libsecret-tools/g)?.length,
        1,
        'the packages are named once',
      );
      const counts = summaryOf(run.out);
      assert.equal(counts.failed, 0);
      // The real-keychain tests skip; the one that needs no keychain at all still runs.
      assert.ok(counts.skipped >= 2, run.out.slice(-3000));
      assert.ok(counts.passed >= 1);
    },
  );
});
