/**
 * The keychain store against the real OS keychain. In CI that is gnome-keyring inside
 * dbus-run-session (.ci/run). Without a reachable Secret Service these tests skip with the
 * reason when run by hand, and FAIL when CI is set: a CI run must never pass by not testing.
 * The "no keychain" case needs no keychain at all and always runs (on Linux): a child
 * process whose D-Bus address points at a socket that does not exist.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { KeychainSecretStore } from '../../electron/host/stores/secret-store.js';
import { HostFailure } from '../../electron/host/util/errors.js';
import { CI, checkKeychain, KEYCHAIN_HOWTO } from '../helpers/keychain-check.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const LINUX = process.platform === 'linux';
const SERVICE = 'MCP Desk';
const temps: string[] = [];

after(async () => {
  await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true })));
});

function unique(prefix: string): string {
  return `${prefix}-${randomBytes(6).toString('hex')}`;
}

// The real default service: a unique probe name leaves a person's own entries alone.
const { problem, skip } = await checkKeychain(new KeychainSecretStore(), unique('mcp-desk-test-probe'));
if (problem) {
  console.log(
    `# keychain: no usable Secret Service (${problem})${CI ? ' — CI is set, so the keychain tests FAIL' : ' — skipping the keychain tests'}`,
  );
}

/** Fails the test (CI) when the keychain is missing; outside CI the test is skipped instead. */
function requireKeychain(): void {
  if (problem) assert.fail(`CI is set but the OS keychain cannot be used: ${problem}. ${KEYCHAIN_HOWTO}.`);
}

/** `secret-tool` from libsecret-tools, used to look at the keychain from outside our code. */
function secretTool(args: string[]): { status: number | null; stdout: string } | undefined {
  const result = spawnSync('secret-tool', args, { encoding: 'utf8', timeout: 15_000 });
  if (result.error && (result.error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
  return { status: result.status, stdout: result.stdout };
}

const HAS_SECRET_TOOL = LINUX && secretTool(['--version']) !== undefined;

// Skipped per test, not per suite: the runner counts skipped tests, not skipped suites.
describe('KeychainSecretStore on the real keychain', () => {
  it('set → get → stored where the OS keychain keeps it → delete → gone', { skip }, async () => {
    requireKeychain();
    const store = new KeychainSecretStore();
    const name = unique('test.secret');
    const value = unique('s3cr3t value with spaces ✓');
    try {
      await store.set(name, value);
      assert.equal(await store.get(name), value);

      if (LINUX) {
        if (!HAS_SECRET_TOOL) {
          if (CI) assert.fail('secret-tool is missing: .ci/run installs libsecret-tools');
          console.log('# secret-tool not installed: not checking the item from outside');
        } else {
          // @napi-rs/keyring files items under the attributes service + username (not "account").
          const lookup = secretTool(['lookup', 'service', SERVICE, 'username', name]);
          assert.equal(lookup?.status, 0, 'secret-tool finds the item');
          assert.equal(lookup?.stdout, value);
        }
      }

      await store.set(name, `${value}-replaced`);
      assert.equal(await store.get(name), `${value}-replaced`, 'set replaces, it does not add a second item');
      assert.equal(await store.delete(name), true);
      assert.equal(await store.get(name), undefined);
      assert.equal(await store.delete(name), false, 'deleting twice is not an error');
      if (HAS_SECRET_TOOL)
        assert.notEqual(
          secretTool(['lookup', 'service', SERVICE, 'username', name])?.status,
          0,
          'the item is gone',
        );
    } finally {
      await store.delete(name).catch(() => undefined);
    }
  });

  it('status reports which API keys are set, and never their values', { skip }, async () => {
    requireKeychain();
    // A service of its own, so a real geminiApiKey of the person running this is never touched.
    const store = new KeychainSecretStore({ service: unique('MCP Desk test') });
    try {
      assert.deepEqual(await store.status(), { geminiApiKey: false, openaiApiKey: false });
      await store.set('geminiApiKey', 'AIza-test-value');
      const status = await store.status();
      assert.deepEqual(status, { geminiApiKey: true, openaiApiKey: false });
      assert.ok(!JSON.stringify(status).includes('AIza-test-value'));
      assert.equal(await store.delete('geminiApiKey'), true);
      assert.deepEqual(await store.status(), { geminiApiKey: false, openaiApiKey: false });
    } finally {
      await store.delete('geminiApiKey').catch(() => undefined);
    }
  });
});

describe('KeychainSecretStore without a keychain', () => {
  const onlyLinux = LINUX ? false : 'a missing D-Bus Secret Service only exists on Linux';
  it(
    'every operation fails with keychain_unavailable and a clear message; nothing is written in plain text',
    { timeout: 60_000, skip: onlyLinux },
    async () => {
      const home = await mkdtemp(join(tmpdir(), 'mcp-desk-nokeychain-home-'));
      const work = await mkdtemp(join(tmpdir(), 'mcp-desk-nokeychain-cwd-'));
      temps.push(home, work);
      const value = unique('plaintext-must-not-appear');
      const script = join(work, 'no-keychain.mts');
      const storeUrl = pathToFileURL(join(ROOT, 'electron/host/stores/secret-store.ts')).href;
      await writeFile(
        script,
        `import { KeychainSecretStore } from ${JSON.stringify(storeUrl)};
const store = new KeychainSecretStore();
const value = process.env.TEST_SECRET_VALUE ?? '';
delete process.env.TEST_SECRET_VALUE;
const outcome = async (run) => {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return { ok: false, name: error.name, code: error.code, message: error.message };
  }
};
const results = {
  set: await outcome(() => store.set('geminiApiKey', value)),
  setOther: await outcome(() => store.set('server.token', value)),
  get: await outcome(() => store.get('geminiApiKey')),
  delete: await outcome(() => store.delete('geminiApiKey')),
  status: await outcome(() => store.status()),
};
process.stdout.write(JSON.stringify(results));
`,
      );
      const env: NodeJS.ProcessEnv = {};
      for (const [k, v] of Object.entries(process.env))
        if (!k.startsWith('XDG_') && k !== 'DBUS_SESSION_BUS_ADDRESS' && k !== 'GNOME_KEYRING_CONTROL')
          env[k] = v;
      Object.assign(env, {
        HOME: home,
        DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(work, 'no-such-bus-socket')}`,
        TEST_SECRET_VALUE: value,
      });
      const child = spawn(process.execPath, ['--import', 'tsx', script], {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((r) => child.on('close', r));
      assert.equal(code, 0, stderr);
      assert.ok(
        !stdout.includes(value) && !stderr.includes(value),
        'the value appears in no output or error',
      );

      type Outcome = { ok: boolean; value?: unknown; name?: string; code?: string; message?: string };
      const results = JSON.parse(stdout) as Record<'set' | 'setOther' | 'get' | 'delete' | 'status', Outcome>;
      for (const op of ['set', 'setOther', 'get', 'delete'] as const) {
        const r = results[op];
        assert.equal(r.ok, false, `${op} must fail, not pretend (got ${JSON.stringify(r.value)})`);
        assert.equal(r.name, new HostFailure('error', 'y').name);
        assert.equal(r.code, 'keychain_unavailable', `${op}: ${r.message}`);
        assert.match(
          r.message ?? '',
          /no OS keychain available: on Linux install and unlock gnome-keyring or another Secret Service/,
        );
      }
      const status = results.status;
      assert.equal(status.ok, true, 'status answers, with the reason, so the UI can show it');
      assert.deepEqual(
        { ...(status.value as object), keychainError: undefined },
        { geminiApiKey: false, openaiApiKey: false, keychainError: undefined },
      );
      assert.match(
        (status.value as { keychainError?: string }).keychainError ?? '',
        /no OS keychain available/,
      );

      // No plaintext fallback: nothing anywhere under HOME (or the working folder) holds the value.
      for (const dir of [home, work]) {
        for (const file of await walk(dir)) {
          assert.ok(!(await readFile(file)).includes(value), `${file} contains the secret`);
        }
      }
      assert.deepEqual(await readdir(home), [], 'nothing was written under HOME');
    },
  );
});

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(full)));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}
