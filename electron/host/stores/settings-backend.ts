/** A settings object as stored: plain JSON, keys this version does not know included. */
export type StoredSettings = Record<string, unknown>;

/** What a backend found where the settings live. */
export type SettingsReadResult =
  /** The stored object; `{}` when nothing was stored yet. */
  | { kind: 'stored'; value: StoredSettings }
  /** There is something, but not a settings object; `problem` says why, for the warning. */
  | { kind: 'unreadable'; problem: string }
  /** The backend itself failed (not the file): the file is left alone and nothing is written. */
  | { kind: 'failed'; problem: string };

/**
 * Where SettingsStore keeps its one JSON object. SettingsStore owns every rule (the zod
 * schema, keeping valid values, unknown keys, ordering of writes); a backend only moves
 * whole objects in and out, so conf in plain Node and electron-store in Electron cannot
 * disagree about what a valid settings file is.
 */
export interface SettingsBackend {
  /** The settings file, for messages; undefined when nothing is persisted. */
  readonly path: string | undefined;
  read(): Promise<SettingsReadResult>;
  /** Replace the stored object with `value`. */
  write(value: StoredSettings): Promise<void>;
  /**
   * Move what is stored out of the way, under a name that says when (`at`, epoch ms), so a
   * fresh object can be written without losing it. Resolves to where it went, or undefined
   * if it could not be moved (then nothing may be written over it).
   */
  setAside(at: number): Promise<string | undefined>;
}
