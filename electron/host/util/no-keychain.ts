import type { SecretsNotStored } from '../../../shared/domain/server-secrets.js';
import { HostFailure } from './errors.js';

/**
 * Flows that add a server (imports, bundles, registry entries, install links) without an OS
 * keychain: the secrets they would store are left unset and said so, and the entry, which
 * holds only `${secret:NAME}` references, is added all the same. A keychain that exists but
 * fails on one entry is still an error: that one may work when tried again.
 */

/** Whether `error` says there is no OS keychain here at all (keychain_unavailable). */
export function isNoKeychain(error: unknown): error is HostFailure {
  return error instanceof HostFailure && error.code === 'keychain_unavailable';
}

/** The keychain's reason without the secret it was about: "no OS keychain available: on Linux install…". */
export function noKeychainReason(error: HostFailure): string {
  return error.message.replace(/^could not \w+ secret "[^"]*": /, '');
}

/**
 * Store each secret with `set`. Where there is no keychain, answer which were left unset and
 * why instead of failing; the rest are not tried (a keychain does not appear mid-operation).
 */
export async function storeUnlessNoKeychain(
  secrets: readonly { name: string; value: string }[],
  set: (name: string, value: string) => Promise<unknown>,
): Promise<SecretsNotStored | undefined> {
  for (const [i, s] of secrets.entries()) {
    try {
      await set(s.name, s.value);
    } catch (error) {
      if (!isNoKeychain(error)) throw error;
      return { names: secrets.slice(i).map((x) => x.name), reason: noKeychainReason(error) };
    }
  }
  return undefined;
}

/** A delete that tidies up after something: without a keychain there is nothing stored to delete. */
export async function deleteUnlessNoKeychain(remove: () => Promise<unknown>): Promise<void> {
  try {
    await remove();
  } catch (error) {
    if (!isNoKeychain(error)) throw error;
  }
}
