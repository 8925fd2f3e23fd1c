import { KeychainSecretStore, MemorySecretStore } from '../stores/secret-store.js';
import { APP_NAME } from '../paths.js';

/**
 * Where OAuth state lives: tokens, client registrations, PKCE verifiers and discovery
 * state, each a JSON string under a key. An interface so the backend can change (the design
 * named keytar, which is archived; @napi-rs/keyring is what runs today). Nothing here ever
 * reaches a file in plaintext, a log or the renderer.
 */
export interface TokenVault {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<boolean>;
}

/** The OS keychain, under a service of its own so OAuth entries never mix with API keys. */
export function keychainTokenVault(env: NodeJS.ProcessEnv = process.env): TokenVault {
  // Tests and side-by-side installs pick another service, as for API keys.
  const base = env.MCP_DESK_KEYCHAIN_SERVICE ?? APP_NAME;
  return new KeychainSecretStore({ service: `${base} OAuth` });
}

/** A vault in memory: the conformance client and tests, where nothing may outlive the process. */
export function memoryTokenVault(): TokenVault {
  return new MemorySecretStore();
}
