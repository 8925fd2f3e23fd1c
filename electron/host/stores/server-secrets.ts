import type { ServerConfig } from '../../../shared/domain/server-config.js';
import { secretRefsOf, type ServerSecretStatus } from '../../../shared/domain/server-secrets.js';
import type { ServerSummary } from '../../../shared/domain/server-state.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { SecretStore } from './secret-store.js';
import type { Redactor } from '../util/redact.js';
import type { SecretResolver } from '../config/expand.js';
import { HostFailure } from '../util/errors.js';
import { isNoKeychain, noKeychainReason } from '../util/no-keychain.js';

/**
 * Keychain accounts of server secrets start with this, so `${secret:NAME}` can never read or
 * overwrite the app's own API keys (geminiApiKey, …) and the list can tell server secrets apart.
 */
export const SERVER_SECRET_PREFIX = 'server.';

/** How `${secret:NAME}` in a server config reads the keychain. */
export function serverSecretResolver(store: SecretStore): SecretResolver {
  return { get: (name) => store.get(SERVER_SECRET_PREFIX + name) };
}

/** The part of McpHost this service needs: who references what, and a way to restart them. */
export interface SecretUsers {
  list(): ServerSummary[];
  serverConfig(id: string): ServerConfig | undefined;
  restart(id: string): Promise<unknown>;
}

/**
 * The write-only side of `${secret:NAME}`: list which names are referenced and set, set or
 * delete a value. A value goes from the request into the Redactor and the keychain and
 * nowhere else; nothing here ever returns, logs or audits it.
 */
export class ServerSecrets {
  constructor(
    private readonly store: SecretStore,
    private readonly users: SecretUsers,
    private readonly redactor: Redactor,
    private readonly audit?: AuditLog,
  ) {}

  /**
   * Every referenced or stored name. Without an OS keychain nothing is stored: the referenced
   * names are listed unset, each with why, instead of the whole list failing.
   */
  async list(): Promise<ServerSecretStatus[]> {
    return (await this.state()).list;
  }

  /** The list, and why no value can be stored here when there is no OS keychain (even with nothing listed). */
  async state(): Promise<{ list: ServerSecretStatus[]; keychainError?: string }> {
    const usedBy = this.usage();
    let stored: Set<string>;
    let keychainError: string | undefined;
    try {
      stored = new Set(
        (await this.store.names())
          .filter((n) => n.startsWith(SERVER_SECRET_PREFIX))
          .map((n) => n.slice(SERVER_SECRET_PREFIX.length)),
      );
    } catch (error) {
      if (!isNoKeychain(error)) throw error;
      stored = new Set();
      keychainError = noKeychainReason(error);
    }
    const names = [...new Set([...usedBy.keys(), ...stored])].sort((a, b) => a.localeCompare(b));
    const list = names.map((name) => ({
      name,
      set: stored.has(name),
      usedBy: usedBy.get(name) ?? [],
      ...(keychainError !== undefined ? { keychainError } : {}),
    }));
    return keychainError !== undefined ? { list, keychainError } : { list };
  }

  async set(name: string, value: string): Promise<ServerSecretStatus[]> {
    // Learned before anything can fail, so even an error on the way out is scrubbed.
    this.redactor.addSecret(value);
    try {
      await this.store.set(SERVER_SECRET_PREFIX + name, value);
    } catch (error) {
      // The keychain's own words, without the prefixed account name the person never typed.
      if (isNoKeychain(error)) throw new HostFailure('keychain_unavailable', noKeychainReason(error));
      throw error;
    }
    await this.changed(name, 'secret-set');
    return this.list();
  }

  async delete(name: string): Promise<ServerSecretStatus[]> {
    await this.store.delete(SERVER_SECRET_PREFIX + name);
    await this.changed(name, 'secret-deleted');
    return this.list();
  }

  /** Server ids per referenced name. */
  private usage(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const s of this.users.list()) {
      for (const name of secretRefsOf(this.users.serverConfig(s.id)))
        out.set(name, [...(out.get(name) ?? []), s.id]);
    }
    return out;
  }

  /** Restart the enabled servers that use the secret, so the new value (or its absence) takes effect now. */
  private async changed(name: string, action: string): Promise<void> {
    const users = this.usage().get(name) ?? [];
    this.audit?.append({ kind: 'auth', action, details: { name, usedBy: users } });
    await Promise.all(
      users
        .filter((id) => this.users.serverConfig(id)?.disabled !== true)
        // A server that cannot restart (an invalid entry) shows its own error in the list.
        .map((id) => this.users.restart(id).catch(() => undefined)),
    );
  }
}
