/**
 * Suites that need the real OS keychain skip with the reason on a machine without one, but
 * fail in CI. npm test itself provides one on Linux where gnome-keyring and dbus are installed
 * (scripts/keyring-session.mjs runs it inside .ci/keyring-session).
 */
import assert from 'node:assert/strict';
import type { KeychainSecretStore } from '../../electron/host/stores/secret-store.js';

/** What a keychain skip says to do: npm test starts a Secret Service itself where it can. */
export const KEYCHAIN_HOWTO =
  'npm test starts a private Secret Service by itself where gnome-keyring and dbus are installed ' +
  '(scripts/keyring-session.mjs; its first lines say what is missing)';

/** CI is set (`0` and `false` count as unset): a missing keychain fails there instead of skipping. */
export const CI = Boolean(process.env.CI) && !['0', 'false'].includes(String(process.env.CI).toLowerCase());

/** Whether the keychain can be used here. */
export interface KeychainCheck {
  /** Why it cannot (a real write and delete failed), or undefined when it can. */
  problem: string | undefined;
  /** The suite's `skip` option: the reason outside CI; in CI the suite runs and requireKeychain fails it. */
  skip: string | false;
}

/** Probe `store` with a real write and delete of `probeName`. */
export async function checkKeychain(store: KeychainSecretStore, probeName = 'probe'): Promise<KeychainCheck> {
  let problem: string | undefined;
  try {
    await store.set(probeName, 'probe-value');
    await store.delete(probeName);
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
  }
  return {
    problem,
    skip: problem && !CI ? `no usable OS keychain here: ${problem}; ${KEYCHAIN_HOWTO}` : false,
  };
}

/** Fail the test when the keychain cannot be used (reached only in CI: elsewhere the suite is skipped). */
export function requireKeychain(problem: KeychainCheck['problem']): void {
  if (problem) assert.fail(`CI is set but the OS keychain cannot be used: ${problem}`);
}
