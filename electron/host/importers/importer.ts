import type { ImportHostId, ImportScope } from '../../../shared/domain/imports.js';

/**
 * One other host's config format: where its files live on each system, and how one file's text
 * turns into server entries in our shape. Parsers are pure (text in, entries out) so each is
 * tested against fixtures written from that host's documentation; nothing here ever writes to
 * another host's files.
 */

/** What path discovery may depend on: passed in, never read from the process, so tests choose. */
export interface ImportContext {
  platform: NodeJS.Platform;
  /** The home folder (`HOME`, or `USERPROFILE` on Windows). */
  home: string;
  /** The environment (APPDATA, XDG_CONFIG_HOME, CODEX_HOME…). */
  env: Readonly<Record<string, string | undefined>>;
  /** A project folder whose own config files (`.vscode/mcp.json`, `.mcp.json`…) are read too. */
  projectDir?: string;
}

/** A file a host may keep servers in. */
export interface CandidateFile {
  path: string;
  scope: ImportScope;
}

/** A value the person must supply (a VS Code `${input:id}`, a Goose `env_keys` entry). */
export interface ParsedInput {
  /** The `${secret:NAME}` name the entry already refers to. */
  secretName: string;
  /** Where it is used, e.g. `env.API_KEY`. */
  from: string;
  description?: string;
}

/** One server as the file declares it, translated to our entry shape (not yet validated). */
export interface ParsedServer {
  /** Its name in the file. */
  name: string;
  /** A sub-group of the file: Claude Code's project path. */
  group?: string;
  /**
   * Our mcpServers entry shape (command/args/env/cwd or url/type/headers, plus disabled,
   * includeTools…), literal secrets still inline; validated by the caller, so an entry the other
   * host would also refuse is passed through as it is and reported there.
   */
  entry: unknown;
  /** What cannot be carried over, one plain sentence each. */
  notCarried: string[];
  inputs: ParsedInput[];
}

/** A file that cannot be read as this host's format; the message says why. */
export class ImportFileError extends Error {}

/** One host's importer. */
export interface HostImporter {
  id: ImportHostId;
  label: string;
  /** Every file this host may keep servers in on this system (existing or not). */
  files(ctx: ImportContext): CandidateFile[];
  /** The servers of one file; throws ImportFileError when the file is not this host's format. */
  parse(text: string, file: CandidateFile): ParsedServer[];
}

type Obj = Record<string, unknown>;

/** A plain object (not an array or null). */
export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** JSON.parse with the file's error as ImportFileError. */
export function parseJsonFile(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ImportFileError(`not valid JSON: ${(error as Error).message}`);
  }
}

/** The object under `key`, or an ImportFileError naming what was expected. */
export function serverMapAt(doc: unknown, key: string, optional = false): Obj {
  if (!isObj(doc)) throw new ImportFileError('the file is not a JSON object');
  const map = doc[key];
  if (map === undefined && optional) return {};
  if (!isObj(map)) throw new ImportFileError(`"${key}" is missing or is not an object of servers`);
  return map;
}

/** Windows' roaming AppData folder. */
export function appData(ctx: ImportContext): string {
  return ctx.env.APPDATA ?? `${ctx.home}\\AppData\\Roaming`;
}

/** The XDG config folder on Linux. */
export function xdgConfig(ctx: ImportContext): string {
  return ctx.env.XDG_CONFIG_HOME ?? `${ctx.home}/.config`;
}
