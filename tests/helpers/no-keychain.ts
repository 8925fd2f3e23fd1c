/**
 * A machine without an OS keychain, for real: on Linux, a D-Bus session address where nothing
 * listens, so @napi-rs/keyring finds no Secret Service, exactly as on a server, a container or
 * WSL without a desktop session. No fake keyring module: the real one fails for real. macOS
 * and Windows always have their keychain, so there these tests skip with that reason.
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The suite's `skip` option: only Linux can be without a keychain. */
export const noKeychainSkip: string | false =
  process.platform === 'linux' ? false : 'macOS and Windows always have an OS keychain';

/** What the keychain says when there is none (secret-store.ts), hint included. */
export const NO_KEYCHAIN_HINT =
  /no OS keychain available: on Linux install and unlock gnome-keyring or another Secret Service/i;

/** A session bus address no D-Bus daemon listens on. */
function nowhere(): string {
  return `unix:path=${join(tmpdir(), `mcp-desk-no-bus-${randomBytes(6).toString('hex')}`)}`;
}

/** `base` as a machine without a Secret Service has it: no usable session bus, no keyring socket. */
export function noKeychainEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) if (k !== 'GNOME_KEYRING_CONTROL') env[k] = v;
  env.DBUS_SESSION_BUS_ADDRESS = nowhere();
  return env;
}

/**
 * Makes this test process one without a Secret Service from now on: the keyring library reads
 * the bus address on every call, so every later keychain call fails as it would there.
 */
export function dropSecretService(): void {
  process.env.DBUS_SESSION_BUS_ADDRESS = nowhere();
  delete process.env.GNOME_KEYRING_CONTROL;
}

/** Every file under `dirs` whose text contains `text`. */
export async function filesHolding(dirs: readonly string[], text: string): Promise<string[]> {
  const found: string[] = [];
  for (const dir of dirs) {
    for (const e of await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])) {
      if (!e.isFile()) continue;
      const path = join(e.parentPath, e.name);
      const body = await readFile(path).catch(() => null);
      if (body?.includes(text)) found.push(path);
    }
  }
  return found;
}
