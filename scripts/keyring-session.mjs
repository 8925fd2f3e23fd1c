// `npm test`'s Secret Service. The keychain tests need one (on Linux, gnome-keyring behind
// D-Bus); CI's `.ci/run` used to be the only way to get it. Now `npm test` itself, on a Linux
// machine with no Secret Service session but with `dbus-run-session` and
// `gnome-keyring-daemon` installed, runs again inside the same private session CI uses
// (`.ci/keyring-session`: a private D-Bus, gnome-keyring unlocked by a service file, a
// throwaway HOME), so the README's command and CI run the same tests. Where those programs
// are missing it says once which packages to install, and only the keychain tests skip.
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';

/** The Debian/Ubuntu packages that give a private Secret Service (and `secret-tool` for the tests). */
export const KEYRING_PACKAGES = ['gnome-keyring', 'dbus', 'libsecret-tools'];

/** Set inside the session this module starts, so the run there does not start another. */
const INSIDE = 'MCP_DESK_TEST_KEYRING_SESSION';

const SUMMARY = /^\d+ passed, \d+ failed, \d+ skipped$/;

/** Whether `name` is an executable on `PATH`. */
function onPath(name, env) {
  return (env.PATH ?? '').split(path.delimiter).some((dir) => {
    if (!dir) return false;
    try {
      accessSync(path.join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Why no Secret Service answers here, or undefined when one does. The tests treat an unset
 * DBUS_SESSION_BUS_ADDRESS as "none" (tests/helpers/e2e-app.ts), so this does too; with one
 * set, the keyring library is asked to list an empty service, as the app's own check does.
 */
async function missingSecretService(env) {
  if (!env.DBUS_SESSION_BUS_ADDRESS) return 'DBUS_SESSION_BUS_ADDRESS is not set';
  // The library reads this process's environment on each call: ask with `env`'s address.
  const own = process.env.DBUS_SESSION_BUS_ADDRESS;
  process.env.DBUS_SESSION_BUS_ADDRESS = env.DBUS_SESSION_BUS_ADDRESS;
  try {
    const keyring = await import('@napi-rs/keyring');
    await keyring.findCredentialsAsync('MCP Desk (keychain check)');
    return undefined;
  } catch (error) {
    return String(error instanceof Error ? error.message : error).split('\n')[0];
  } finally {
    if (own === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
    else process.env.DBUS_SESSION_BUS_ADDRESS = own;
  }
}

/**
 * What this run does about the keychain: `go on` as it is (a Secret Service answers, not Linux,
 * or already inside the session), `start` the private session, or go on `without` one (the
 * programs to start it are missing; `missing` names them).
 */
export async function keyringPlan({ env = process.env, platform = process.platform } = {}) {
  if (platform !== 'linux' || env[INSIDE] === '1') return { kind: 'go on' };
  const why = await missingSecretService(env);
  if (why === undefined) return { kind: 'go on' };
  const missing = ['dbus-run-session', 'gnome-keyring-daemon'].filter((bin) => !onPath(bin, env));
  return missing.length ? { kind: 'without', why, missing } : { kind: 'start', why };
}

/**
 * The environment of the run inside the session. Its HOME is a throwaway one, so npm would lose
 * the person's npm config (a registry mirror, a proxy) and cache: both are pointed back at the
 * real HOME's, unless already set.
 */
export function sessionEnv(env = process.env) {
  const out = { ...env, [INSIDE]: '1' };
  const home = env.HOME;
  if (home) {
    const rc = path.join(home, '.npmrc');
    if (!env.npm_config_userconfig && !env.NPM_CONFIG_USERCONFIG && existsSync(rc))
      out.npm_config_userconfig = rc;
    if (!env.npm_config_cache && !env.NPM_CONFIG_CACHE) out.npm_config_cache = path.join(home, '.npm');
  }
  return out;
}

/**
 * Runs `script` with `args` again inside `.ci/keyring-session` when this machine has no Secret
 * Service but can start one, and exits with that run's code; its output passes through, so
 * its last line (the `N passed, N failed, N skipped` summary) stays the last line. Returns
 * when this process should run the tests itself (saying once why the keychain tests will skip,
 * if they will).
 */
export async function rerunInKeyringSession(root, script, args) {
  const plan = await keyringPlan();
  if (plan.kind === 'go on') return;
  if (plan.kind === 'without') {
    console.log(
      `test: no Secret Service here (${plan.why}) and no ${plan.missing.join(' or ')} to start one, so the ` +
        `tests that need the OS keychain are skipped. To run them too: sudo apt-get install ${KEYRING_PACKAGES.join(' ')}` +
        ' (npm test then starts a private D-Bus session with gnome-keyring by itself)',
    );
    return;
  }
  console.log(
    `test: no Secret Service here (${plan.why}); running in a private D-Bus session with gnome-keyring (.ci/keyring-session)`,
  );
  const child = spawn(path.join(root, '.ci', 'keyring-session'), [process.execPath, script, ...args], {
    cwd: root,
    env: sessionEnv(),
    stdio: ['ignore', 'pipe', 'inherit'],
    // Its own process group, so a signal reaches the whole session (D-Bus, the keyring, the tests).
    detached: true,
  });
  const forward = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => forward(signal));
  let last = '';
  let pending = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) last = line.trim();
  });
  const code = await new Promise((resolve) => {
    child.on('error', (error) => {
      console.log(`test: could not start .ci/keyring-session: ${error.message}`);
      resolve(1);
    });
    child.on('close', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
  });
  if (pending.trim()) last = pending.trim();
  if (!SUMMARY.test(last)) {
    // The session died before the tests could report: CI reads the last line, so say so there.
    console.log(`test: the keyring session ended (code ${code}) before the tests reported`);
    console.log('0 passed, 1 failed, 0 skipped');
    process.exit(code === 0 ? 1 : code);
  }
  process.exit(code);
}
