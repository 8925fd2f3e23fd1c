import type { Redactor } from '../util/redact.js';
import { PRIVATE_JWK_MEMBERS } from './dpop-keys.js';
import type { TokenVault } from './token-vault.js';

/** Fields of stored OAuth JSON whose values are credentials. */
const SECRET_FIELDS = new Set([
  'access_token',
  'refresh_token',
  'id_token',
  'client_secret',
  'registration_access_token',
]);

/**
 * Teach the redactor every credential (and DPoP private key) that passes through the vault,
 * the moment it is read or written: the SDK logs nothing itself, but errors, traces and audit records that
 * quote a token (a 401 body, a failed refresh) are scrubbed before anyone sees them.
 */
export function redactingVault(inner: TokenVault, redactor: Redactor): TokenVault {
  const learn = (key: string, value: string): void => {
    // PKCE verifiers are stored bare; everything else is JSON.
    if (key.endsWith('.verifier')) {
      redactor.addSecret(value);
      return;
    }
    // A DPoP private key (a JWK): the whole entry, and each private member on its own, in
    // case an error or a dump shows the parsed object rather than the stored text.
    const dpop = key.endsWith('.dpop');
    if (dpop) redactor.addSecret(value);
    try {
      const parsed: unknown = JSON.parse(value);
      if (parsed && typeof parsed === 'object') {
        for (const [k, v] of Object.entries(parsed as Record<string, unknown>))
          if ((SECRET_FIELDS.has(k) || (dpop && PRIVATE_JWK_MEMBERS.includes(k))) && typeof v === 'string')
            redactor.addSecret(v);
      }
    } catch {
      // Not JSON: nothing we know how to pick apart.
    }
  };
  return {
    async get(key) {
      const value = await inner.get(key);
      if (value !== undefined) learn(key, value);
      return value;
    },
    async set(key, value) {
      learn(key, value);
      await inner.set(key, value);
    },
    delete: (key) => inner.delete(key),
  };
}
