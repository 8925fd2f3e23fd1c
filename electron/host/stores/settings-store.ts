import type { z } from 'zod';
import type { ChatSettings } from '../../../shared/domain/chat.js';
import { chatSettingsPatchSchema, chatSettingsSchema } from '../../../shared/domain/chat-settings.js';
import { describeIssues, HostFailure } from '../util/errors.js';
import { ConfSettingsBackend } from './conf-settings-backend.js';
import type { SettingsBackend, StoredSettings } from './settings-backend.js';
import type { Disposable } from '../util/disposable.js';
import type { AppSettings } from '../../../shared/domain/app-settings.js';
import { DEFAULT_APP_SETTINGS, appSettingsPatchSchema } from '../../../shared/domain/app-settings.js';
import { parseAppSection } from './app-settings-section.js';
import { emptyTrust, parseTrust, TrustRecords, type TrustSettings } from '../policies/trust-records.js';

/** What a person gets before they change anything. */
export const DEFAULT_CHAT_SETTINGS: Readonly<ChatSettings> = Object.freeze({
  provider: 'gemini',
  geminiModel: 'gemini-2.5-flash',
  geminiBaseUrl: '',
  openaiBaseUrl: 'http://127.0.0.1:11434/v1',
  openaiModel: 'llama3.1',
  maxTurns: 10,
  disabledServers: [],
  disabledTools: [],
});

/** Options for SettingsStore.open. */
export interface SettingsStoreOptions {
  /** Told when the file was unreadable or partly invalid and what was done about it. */
  onWarning?: (message: string) => void;
  now?: () => number;
}

type JsonObject = StoredSettings;

interface SettingsDocument {
  chat: ChatSettings;
  /** Appearance and the quick-ask shortcut (the `app` section). */
  app: AppSettings;
  /** As read: from then on the records live in `SettingsStore.trustRecords`. */
  trust: TrustSettings;
  /** Keys this version does not know, written back untouched (a newer version, conf's own). */
  otherKeys: JsonObject;
  otherChatKeys: JsonObject;
}

/**
 * Chat settings and standing trust, in one plain JSON object (`{ chat, trust }`) kept by a
 * SettingsBackend: conf in plain Node, electron-store in Electron, both on
 * `<dataDir>/settings.json`. The zod schemas (shared/domain/chat-settings.ts, and for trust
 * policies/trust-records.ts) are the only definition of what is valid;
 * the backends only move whole objects. Reads are synchronous from memory; every change is
 * written in order. A file that cannot be read or holds invalid values is never lost: it is
 * kept beside the original as `settings.json.bad-<ts>`, the valid values are kept and the
 * rest fall back to defaults, with a warning. Secrets never live here (see secret-store.ts):
 * every field is named by the strict schemas, and none of them holds a key or token.
 */
export class SettingsStore implements Disposable {
  /** The last queued write; later writes wait for it so they land in order. */
  private writes: Promise<void> = Promise.resolve();
  /** The `trust` section: written with this file, ruled by policies/ (the PolicyStore's trust). */
  readonly trustRecords: TrustRecords;

  private constructor(
    private doc: SettingsDocument,
    /** Where changes are written; undefined keeps them in memory only. */
    private readonly backend: SettingsBackend | undefined,
    /** The settings file, or undefined when nothing is persisted. */
    readonly path: string | undefined,
  ) {
    this.trustRecords = new TrustRecords(doc.trust, {
      save: () => this.persist(),
      flush: () => this.flush(),
    });
  }

  /** Load `path` (usually `<dataDir>/settings.json`) through conf; a missing file means defaults. */
  static open(path: string, options: SettingsStoreOptions = {}): Promise<SettingsStore> {
    return SettingsStore.openWith(ConfSettingsBackend.forFile(path), options);
  }

  /** Load the settings a backend holds (electron-store in Electron, conf elsewhere). */
  static async openWith(
    backend: SettingsBackend,
    options: SettingsStoreOptions = {},
  ): Promise<SettingsStore> {
    const warn = options.onWarning ?? ((message: string) => console.warn(message));
    const now = options.now ?? Date.now;
    const path = backend.path ?? 'settings';
    const found = await backend.read();
    if (found.kind === 'failed') {
      warn(
        `settings file ${path} could not be opened (${found.problem}). It was left as it is, and settings changes will not be saved this session.`,
      );
      return new SettingsStore(emptyDocument(), undefined, backend.path);
    }
    const { doc, problems } =
      found.kind === 'stored'
        ? parseSettings(found.value)
        : { doc: emptyDocument(), problems: [found.problem] };
    if (problems.length === 0) return new SettingsStore(doc, backend, backend.path);

    const aside = await backend.setAside(now());
    if (!aside) {
      // Writing would replace a file we could neither read nor move: keep changes in memory.
      warn(
        `settings file ${path}: ${problems.join('; ')}. It could not be moved aside either, so settings changes will not be saved this session.`,
      );
      return new SettingsStore(doc, undefined, backend.path);
    }
    warn(
      `settings file ${path}: ${problems.join('; ')}. Those settings fell back to defaults; the original file was kept as ${aside}.`,
    );
    const store = new SettingsStore(doc, backend, backend.path);
    await store
      .persist()
      .catch((error: unknown) =>
        warn(`settings file ${path} could not be rewritten: ${(error as Error).message}`),
      );
    return store;
  }

  /** Settings that live only in memory (CLI one-shots, tests). */
  static inMemory(initial: Partial<ChatSettings> = {}, trust?: TrustSettings): SettingsStore {
    const doc = emptyDocument();
    doc.chat = validateSettings({ ...doc.chat, ...initial });
    if (trust) doc.trust = trust;
    return new SettingsStore(doc, undefined, undefined);
  }

  /** The current chat settings (a copy). */
  get(): ChatSettings {
    return copyChat(this.doc.chat);
  }

  /** Change some settings; throws `invalid_settings` naming each bad field, changing nothing. */
  async update(patch: z.input<typeof chatSettingsPatchSchema>): Promise<ChatSettings> {
    const parsed = chatSettingsPatchSchema.safeParse(patch);
    if (!parsed.success)
      throw new HostFailure('invalid_settings', `invalid settings: ${describeIssues(parsed.error.issues)}`);
    const changes = Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined));
    const next: Record<string, unknown> = { ...this.doc.chat, ...changes };
    // null clears a field back to its default (the temperature: the provider's own).
    for (const [key, value] of Object.entries(next)) if (value === null) delete next[key];
    this.doc.chat = normaliseChat(next as unknown as ChatSettings);
    await this.persist();
    return this.get();
  }

  /** The app settings (appearance, quick-ask shortcut; a copy). */
  getApp(): AppSettings {
    return { ...this.doc.app };
  }

  /** Change some app settings; throws `invalid_settings` naming each bad field, changing nothing. */
  async updateApp(patch: Partial<AppSettings>): Promise<AppSettings> {
    const parsed = appSettingsPatchSchema.safeParse(patch);
    if (!parsed.success)
      throw new HostFailure('invalid_settings', `invalid settings: ${describeIssues(parsed.error.issues)}`);
    const changes = Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined));
    this.doc.app = { ...this.doc.app, ...changes };
    await this.persist();
    return this.getApp();
  }

  /** Resolves once every queued write has finished. */
  flush(): Promise<void> {
    return this.writes;
  }

  dispose(): Promise<void> {
    return this.flush();
  }

  private persist(): Promise<void> {
    const backend = this.backend;
    if (!backend) return Promise.resolve();
    // Copied now, so the queued write carries the state of this change and every earlier one.
    const value = serialiseSettings(this.doc, this.trustRecords.snapshot());
    const next = this.writes.then(() => backend.write(value));
    this.writes = next.catch(() => undefined);
    return next;
  }
}

function emptyDocument(): SettingsDocument {
  return {
    chat: copyChat(DEFAULT_CHAT_SETTINGS),
    app: { ...DEFAULT_APP_SETTINGS },
    trust: emptyTrust(),
    otherKeys: {},
    otherChatKeys: {},
  };
}

function copyChat(chat: Readonly<ChatSettings>): ChatSettings {
  return { ...chat, disabledServers: [...chat.disabledServers], disabledTools: [...chat.disabledTools] };
}

function normaliseChat(chat: ChatSettings): ChatSettings {
  return {
    ...chat,
    disabledServers: [...new Set(chat.disabledServers)],
    disabledTools: [...new Set(chat.disabledTools)],
  };
}

function validateSettings(value: unknown): ChatSettings {
  const parsed = chatSettingsSchema.safeParse(value);
  if (!parsed.success)
    throw new HostFailure('invalid_settings', `invalid settings: ${describeIssues(parsed.error.issues)}`);
  return normaliseChat(parsed.data);
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Read a stored object, keeping every valid value; `problems` says what was dropped and why. */
function parseSettings(stored: StoredSettings): { doc: SettingsDocument; problems: string[] } {
  const doc = emptyDocument();
  const problems: string[] = [];
  const { chat, trust, app, ...otherKeys } = stored;
  doc.otherKeys = otherKeys;

  if (chat !== undefined && !isObject(chat)) problems.push('"chat" is not an object');
  if (isObject(chat)) {
    const merged: JsonObject = { ...doc.chat };
    const shape = chatSettingsSchema.shape;
    for (const [key, value] of Object.entries(chat)) {
      if (!Object.hasOwn(shape, key)) {
        doc.otherChatKeys[key] = value;
        continue;
      }
      const field = shape[key as keyof typeof shape].safeParse(value);
      if (field.success) merged[key] = field.data;
      else problems.push(`chat.${key}: ${describeIssues(field.error.issues)}`);
    }
    doc.chat = validateSettings(merged);
  }

  if (app !== undefined) doc.app = parseAppSection(app, problems);

  if (trust !== undefined && !isObject(trust)) problems.push('"trust" is not an object');
  if (isObject(trust)) {
    doc.trust = parseTrust(trust, problems);
  }
  return { doc, problems };
}

function serialiseSettings(doc: SettingsDocument, trust: TrustSettings): StoredSettings {
  // A deep copy: the queued write must carry the state of this change, not a later one.
  return structuredClone({
    ...doc.otherKeys,
    chat: { ...doc.otherChatKeys, ...doc.chat },
    // Left out while it is all defaults, so a file nobody restyled stays as it was.
    ...(isDefaultApp(doc.app) ? {} : { app: doc.app }),
    trust,
  });
}

function isDefaultApp(app: AppSettings): boolean {
  return (Object.keys(DEFAULT_APP_SETTINGS) as (keyof AppSettings)[]).every(
    (k) => app[k] === DEFAULT_APP_SETTINGS[k],
  );
}
