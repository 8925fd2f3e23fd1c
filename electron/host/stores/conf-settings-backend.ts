import { lstat, rename } from 'node:fs/promises';
import { basename, dirname, extname, resolve } from 'node:path';
import Conf from 'conf';
import type { SettingsBackend, SettingsReadResult, StoredSettings } from './settings-backend.js';

/**
 * The options both conf (plain Node) and electron-store (Electron) are built from, in
 * electron-store's spelling (`name`; conf calls it `configName`). One function builds them so
 * the two cannot drift apart: same file, same format, same permissions.
 *
 * Deliberately no `schema`: conf validates the whole object on every read and throws on the
 * first bad value, so one hand-edited field would cost every other setting. The zod schema in
 * settings-store.ts stays the only definition; it checks field by field and keeps what is valid.
 */
export interface SettingsFileOptions {
  readonly cwd: string;
  readonly name: string;
  readonly fileExtension: 'json';
  readonly configFileMode: number;
  readonly accessPropertiesByDotNotation: false;
  readonly clearInvalidConfig: false;
  readonly watch: false;
  readonly serialize: (value: StoredSettings) => string;
  readonly deserialize: (text: string) => StoredSettings;
}

/** The options for the settings file `<dir>/<name>.json` (`<dataDir>/settings.json` by default). */
export function settingsFileOptions(dir: string, name = 'settings'): SettingsFileOptions {
  return {
    cwd: dir,
    name,
    fileExtension: 'json',
    // Standing trust decisions live here: readable by this user only, like the other data files.
    configFileMode: 0o600,
    // SettingsStore reads and writes whole objects; a key with a dot in it stays one key.
    accessPropertiesByDotNotation: false,
    // conf would silently start over from `{}`; SettingsStore keeps a bad file aside instead.
    clearInvalidConfig: false,
    watch: false,
    serialize: settingsText,
    deserialize: parseSettingsText,
  };
}

/** Builds the conf instance for a backend: plain conf here, electron-store (a conf subclass) in Electron. */
export type ConfFactory = (options: SettingsFileOptions) => Conf<StoredSettings>;

/** Options for ConfSettingsBackend. */
export interface ConfSettingsBackendOptions {
  /** The file name without `.json`; `settings` by default. */
  name?: string;
  create?: ConfFactory;
}

/** Settings in a JSON file through `conf`, for plain Node (browser mode, the CLI, tests). */
export class ConfSettingsBackend implements SettingsBackend {
  readonly path: string;
  /** What the conf instance is built from (tests compare the Electron backend's against it). */
  readonly options: SettingsFileOptions;
  private readonly create: ConfFactory;
  private conf: Conf<StoredSettings> | undefined;

  constructor(dir: string, options: ConfSettingsBackendOptions = {}) {
    this.options = settingsFileOptions(dir, options.name);
    this.create = options.create ?? createConf;
    // The same resolution conf applies to cwd + configName + fileExtension.
    this.path = resolve(dir, `${this.options.name}.${this.options.fileExtension}`);
  }

  /** A backend for the file at `path`, which must end in `.json`. */
  static forFile(path: string, create?: ConfFactory): ConfSettingsBackend {
    if (extname(path) !== '.json') throw new Error(`a settings file must end in .json: ${path}`);
    return new ConfSettingsBackend(dirname(path), {
      name: basename(path, '.json'),
      ...(create ? { create } : {}),
    });
  }

  async read(): Promise<SettingsReadResult> {
    try {
      // A copy: conf hands out a null-prototype object.
      return { kind: 'stored', value: { ...this.instance().store } };
    } catch (error) {
      return describeReadFailure(error);
    }
  }

  async write(value: StoredSettings): Promise<void> {
    this.instance().store = value;
  }

  setAside(at: number): Promise<string | undefined> {
    return keepAside(this.path, at);
  }

  private instance(): Conf<StoredSettings> {
    // Built on first use rather than in the constructor: conf reads and parses the file while
    // it is constructed and throws on a bad one, which must become a warning, not a crash.
    // After the bad file is set aside, the next call finds no file and succeeds.
    this.conf ??= this.create(this.options);
    return this.conf;
  }
}

function createConf(options: SettingsFileOptions): Conf<StoredSettings> {
  const { name, ...rest } = options;
  return new Conf<StoredSettings>({ ...rest, configName: name });
}

/** Two-space JSON with a final newline: the format the file had before conf, easy to hand-edit. */
function settingsText(value: StoredSettings): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Thrown by the deserializer for a file that is there but is not a settings object. */
class SettingsFileError extends Error {}

function parseSettingsText(text: string): StoredSettings {
  // An empty file is what an interrupted non-atomic write (conf on Snap) may leave: nothing to keep.
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SettingsFileError(`it is not valid JSON (${(error as Error).message})`);
  }
  // conf would turn an array or a string into an object of its indices; refuse it instead.
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new SettingsFileError('it is not a JSON object');
  return value as StoredSettings;
}

function describeReadFailure(error: unknown): SettingsReadResult {
  if (error instanceof SettingsFileError) return { kind: 'unreadable', problem: error.message };
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code === 'string') return { kind: 'unreadable', problem: `it could not be read (${code})` };
  // Not about the file (e.g. electron-store outside Electron's main process): leave the file alone.
  return { kind: 'failed', problem: error instanceof Error ? error.message : String(error) };
}

/** Move a bad file out of the way under a name that says when; undefined if that failed. */
async function keepAside(path: string, at: number): Promise<string | undefined> {
  const stamp = new Date(at).toISOString().replace(/[:.]/g, '-');
  for (let n = 0; n < 100; n++) {
    const aside = `${path}.bad-${stamp}${n ? `-${n}` : ''}`;
    // rename silently replaces an existing target, which would lose an earlier bad file.
    if (await taken(aside)) continue;
    try {
      await rename(path, aside);
      return aside;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

async function taken(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}
