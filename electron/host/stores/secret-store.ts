import type * as Keyring from '@napi-rs/keyring';
import type { SecretStatus } from '../../../shared/domain/chat.js';
import { APP_NAME } from '../paths.js';
import { HostFailure } from '../util/errors.js';

/** Names a secret may have: API keys now, `${secret:NAME}` values of server configs later. */
export const SECRET_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,100}$/;

/** The secrets SecretStatus reports on. */
export const KNOWN_SECRET_NAMES = ['geminiApiKey', 'openaiApiKey'] as const;

/** Longer than any API key or token we expect, short enough to refuse a pasted file. */
export const MAX_SECRET_LENGTH = 100_000;

/** Write-mostly storage for secrets; values never leave the host and never appear in errors. */
export interface SecretStore {
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
  /** Resolves true if something was removed, false if nothing was stored. */
  delete(name: string): Promise<boolean>;
  /** Which known secrets are set; `keychainError` says why the keychain cannot be used, if it cannot. */
  status(): Promise<SecretStatus>;
  /** The names of every stored secret (never values): lets a list show what is set in one keychain call. */
  names(): Promise<string[]>;
}

/** Throws `invalid_secret_name` unless `name` matches SECRET_NAME_PATTERN. */
export function assertSecretName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || !SECRET_NAME_PATTERN.test(name)) {
    const shown = typeof name === 'string' ? JSON.stringify(name.slice(0, 100)) : typeof name;
    throw new HostFailure(
      'invalid_secret_name',
      `not a secret name: ${shown} (letters, digits, "_", "." and "-", at most 100)`,
    );
  }
}

// The value is never quoted back: the message says only what is wrong with it.
function assertSecretValue(name: string, value: unknown): asserts value is string {
  if (typeof value !== 'string') throw new HostFailure('invalid_secret', `secret "${name}" must be a string`);
  if (value.length === 0)
    throw new HostFailure(
      'invalid_secret',
      `secret "${name}" is empty: delete it instead of setting it to nothing`,
    );
  if (value.length > MAX_SECRET_LENGTH) {
    throw new HostFailure(
      'invalid_secret',
      `secret "${name}" is too long (${value.length} characters, at most ${MAX_SECRET_LENGTH})`,
    );
  }
}

function statusOf(isSet: (name: string) => boolean): SecretStatus {
  return { geminiApiKey: isSet('geminiApiKey'), openaiApiKey: isSet('openaiApiKey') };
}

/** Options for MemorySecretStore. */
export interface MemorySecretStoreOptions {
  initial?: Record<string, string>;
  /** Behave like a machine without a keychain: every call fails with this reason. */
  unavailableReason?: string;
}

/** Secrets in memory only (tests, one-shot CLI runs). */
export class MemorySecretStore implements SecretStore {
  private readonly values = new Map<string, string>();

  constructor(private readonly options: MemorySecretStoreOptions = {}) {
    for (const [name, value] of Object.entries(options.initial ?? {})) {
      assertSecretName(name);
      assertSecretValue(name, value);
      this.values.set(name, value);
    }
  }

  async get(name: string): Promise<string | undefined> {
    assertSecretName(name);
    this.check();
    return this.values.get(name);
  }

  async set(name: string, value: string): Promise<void> {
    assertSecretName(name);
    assertSecretValue(name, value);
    this.check();
    this.values.set(name, value);
  }

  async delete(name: string): Promise<boolean> {
    assertSecretName(name);
    this.check();
    return this.values.delete(name);
  }

  async status(): Promise<SecretStatus> {
    const reason = this.options.unavailableReason;
    if (reason !== undefined) return { ...statusOf(() => false), keychainError: reason };
    return statusOf((name) => this.values.has(name));
  }

  async names(): Promise<string[]> {
    this.check();
    return [...this.values.keys()];
  }

  dispose(): void {
    this.values.clear();
  }

  private check(): void {
    const reason = this.options.unavailableReason;
    if (reason !== undefined) throw new HostFailure('keychain_unavailable', reason);
  }
}

/** The part of `@napi-rs/keyring` this store uses (injectable, and loaded lazily). */
export type KeyringModule = Pick<typeof Keyring, 'AsyncEntry' | 'findCredentialsAsync'>;

/** Options for KeychainSecretStore. */
export interface KeychainSecretStoreOptions {
  /** The keychain "service" every secret is filed under; tests use their own. */
  service?: string;
  loadKeyring?: () => Promise<KeyringModule>;
  platform?: NodeJS.Platform;
}

/**
 * Secrets in the OS keychain (macOS Keychain, Windows Credential Manager, the Secret
 * Service on Linux) through @napi-rs/keyring: service "MCP Desk", account = secret name.
 * There is deliberately no plaintext fallback: without a keychain every call fails with
 * `keychain_unavailable` and a message saying what to install or unlock.
 *
 * @napi-rs/keyring 1.2.0 reports read and delete failures as "no entry" (getPassword
 * resolves null, deleteCredential false) even when there is no D-Bus at all, which would
 * make "no keychain" look like "no key". On Linux, where a missing Secret Service is
 * common, such an answer is therefore checked by asking the Secret Service for this
 * service's items (findCredentialsAsync does report a missing D-Bus or provider).
 *
 * A call cut off because the Secret Service went away mid-call (gnome-keyring can crash
 * when many clients connect at once; D-Bus starts it again on the next call) is made once
 * more before it is reported.
 */
export class KeychainSecretStore implements SecretStore {
  readonly service: string;
  private module: Promise<KeyringModule> | undefined;
  private readonly loadKeyring: () => Promise<KeyringModule>;
  private readonly platform: NodeJS.Platform;

  constructor(options: KeychainSecretStoreOptions = {}) {
    this.service = options.service ?? APP_NAME;
    // Loaded on first use so that a missing native binary is a clear error, not a crash at startup.
    this.loadKeyring = options.loadKeyring ?? (() => import('@napi-rs/keyring'));
    this.platform = options.platform ?? process.platform;
  }

  async get(name: string): Promise<string | undefined> {
    assertSecretName(name);
    const keyring = await this.load();
    let value: string | null | undefined;
    try {
      value = await retryOnce(() => new keyring.AsyncEntry(this.service, name).getPassword());
    } catch (error) {
      // Found, then deleted (by another window or process) before its value was read.
      if (VANISHED_ITEM.test(firstLine(error))) return undefined;
      throw this.failure('read', name, error);
    }
    if (value !== null && value !== undefined) return value;
    await this.checkAnswers(keyring);
    return undefined;
  }

  async set(name: string, value: string): Promise<void> {
    assertSecretName(name);
    assertSecretValue(name, value);
    const keyring = await this.load();
    try {
      // A write does report a missing Secret Service, so it needs no check first.
      await retryOnce(() => new keyring.AsyncEntry(this.service, name).setPassword(value));
    } catch (error) {
      throw this.failure('store', name, error, value);
    }
  }

  async delete(name: string): Promise<boolean> {
    assertSecretName(name);
    const keyring = await this.load();
    let removed: boolean;
    try {
      removed = await retryOnce(() => new keyring.AsyncEntry(this.service, name).deleteCredential());
    } catch (error) {
      // Deleted by someone else between being found and being deleted here.
      if (VANISHED_ITEM.test(firstLine(error))) return false;
      throw this.failure('delete', name, error);
    }
    if (!removed) await this.checkAnswers(keyring);
    return removed;
  }

  async status(): Promise<SecretStatus> {
    try {
      const names = new Set(await this.names());
      return statusOf((name) => names.has(name));
    } catch (error) {
      const reason = error instanceof HostFailure ? error.message : this.unavailable(error).message;
      return { ...statusOf(() => false), keychainError: reason };
    }
  }

  async names(): Promise<string[]> {
    const keyring = await this.load();
    for (let attempt = 1; ; attempt++) {
      try {
        return (await retryOnce(() => keyring.findCredentialsAsync(this.service))).map((c) => c.account);
      } catch (error) {
        // An item deleted while the list was being read: the list is simply read again.
        if (!LIST_RACE.test(firstLine(error))) throw this.unavailable(error);
        if (attempt === LIST_ATTEMPTS)
          throw new HostFailure(
            'keychain_error',
            `the OS keychain kept changing while its secrets were listed (${firstLine(error)})`,
          );
      }
    }
  }

  dispose(): void {}

  private load(): Promise<KeyringModule> {
    this.module ??= this.loadKeyring().catch((error: unknown) => {
      this.module = undefined;
      throw new HostFailure(
        'keychain_unavailable',
        `the OS keychain module could not be loaded (${firstLine(error)})`,
      );
    });
    return this.module;
  }

  /**
   * After a "no entry" answer, which keyring-rs also gives when there is no Secret Service at
   * all (Linux), check that one answers. The check lists a service nothing is ever stored
   * under: listing our own would read every item, and an item deleted meanwhile (by another
   * window or process) would fail the list and read as "no keychain".
   */
  private async checkAnswers(keyring: KeyringModule): Promise<void> {
    if (this.platform !== 'linux') return;
    try {
      await retryOnce(() => keyring.findCredentialsAsync(`${this.service} ${PROBE_SUFFIX}`));
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  private unavailable(error: unknown): HostFailure {
    return new HostFailure('keychain_unavailable', `${this.missingKeychainHint()} (${firstLine(error)})`);
  }

  private failure(
    action: 'read' | 'store' | 'delete',
    name: string,
    error: unknown,
    value?: string,
  ): HostFailure {
    const detail = scrub(firstLine(error), value);
    // keyring-rs: PlatformFailure / NoStorageAccess mean the store itself is unusable (no
    // D-Bus, no provider, no unlocked default collection); anything else is about this entry.
    if (/platform secure storage|secret service|d-?bus/i.test(detail)) {
      return new HostFailure(
        'keychain_unavailable',
        `could not ${action} secret "${name}": ${this.missingKeychainHint()} (${detail})`,
      );
    }
    return new HostFailure(
      'keychain_error',
      `could not ${action} secret "${name}" in the OS keychain: ${detail}`,
    );
  }

  private missingKeychainHint(): string {
    switch (this.platform) {
      case 'darwin':
        return 'the macOS Keychain could not be used: check that your login keychain exists and is unlocked';
      case 'win32':
        return 'Windows Credential Manager could not be used';
      default:
        return (
          'no OS keychain available: on Linux install and unlock gnome-keyring or another Secret Service ' +
          '(KeePassXC, KWallet) and run the app inside a desktop session with D-Bus (DBUS_SESSION_BUS_ADDRESS set)'
        );
    }
  }
}

/**
 * A Secret Service that went away mid-call (crashed): D-Bus starts it again on the next call.
 * Either the call got no answer, or it reached the new daemon with the old one's session.
 */
const DISCONNECTED =
  /disconnected from message bus without replying|DBus\.Error\.NoReply|session wrapping the secret does not exist/i;

/** The Secret Service listed an item that was gone by the time it was read (deleted meanwhile). */
const VANISHED_ITEM =
  /Object does not exist at path|No such interface .{0,10}org\.freedesktop\.Secret\.Item/i;

/** A list that failed on an item deleted while it was read (zbus words one case without detail). */
const LIST_RACE = new RegExp(`${VANISHED_ITEM.source}|zbus\\.Error: no description`, 'i');

/** Names the empty service the liveness check lists. */
const PROBE_SUFFIX = '(keychain check)';

/** How many times a list is read when items keep vanishing under it. */
const LIST_ATTEMPTS = 3;

/** Run `call`, and once more if the Secret Service went away without answering. */
async function retryOnce<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!DISCONNECTED.test(firstLine(error))) throw error;
    return call();
  }
}

/** The first line of an error (the native one appends a Rust backtrace), kept short. */
function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split('\n')[0]?.trim() || 'unknown error';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/** The native message has never been seen to echo the value; this makes sure it cannot. */
function scrub(text: string, value: string | undefined): string {
  return value ? text.split(value).join('[redacted]') : text;
}
