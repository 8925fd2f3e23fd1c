import { posix, win32 } from 'node:path';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
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
  /** The home folder, for `${userHome}` (VS Code, Cursor); set by `files(ctx)`. */
  home?: string;
  /** The project folder of a project-scope file, for `${workspaceFolder}` and relative paths. */
  workspaceFolder?: string;
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
  /** An env file the host loads before starting the server (VS Code/Cursor `envFile`), absolute. */
  envFile?: string;
  /**
   * Why this server cannot be brought over at all (a Zed extension's server, Goose inline
   * Python): the candidate's error in place of validating `entry`.
   */
  unsupported?: string;
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

/**
 * Strict JSON, with the file's error as ImportFileError. The message names the problem and its
 * place only: JSON.parse quotes the text around a mistake, which may be a token.
 */
export function parseJsonFile(text: string): unknown {
  return parseWithJsonc(text, 'JSON', { allowTrailingComma: false, disallowComments: true });
}

/** JSON with comments and trailing commas (VS Code, Zed, gemini-cli settings); empty is `{}`. */
export function parseJsoncFile(text: string): unknown {
  if (text.trim() === '') return {};
  return parseWithJsonc(text, 'JSON', { allowTrailingComma: true, disallowComments: false });
}

function parseWithJsonc(
  text: string,
  kind: string,
  options: { allowTrailingComma: boolean; disallowComments: boolean },
): unknown {
  if (text.trim() === '') throw new ImportFileError('the file is empty');
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, options);
  const first = errors[0];
  if (first) {
    const what = printParseErrorCode(first.error)
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase();
    throw new ImportFileError(`not valid ${kind}: ${what} at ${place(text, first.offset)}`);
  }
  return value;
}

/** `line L, column C` of an offset (1-based), never the text there. */
export function place(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
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

/** Path joining for the context's system, so Windows paths get backslashes wherever tests run. */
export function joinFor(ctx: ImportContext): (...parts: string[]) => string {
  const api = ctx.platform === 'win32' ? win32 : posix;
  return (...parts) => api.join(...parts);
}

/** A user-scope file of this context (with the home folder for `${userHome}`). */
export function userFile(ctx: ImportContext, ...parts: string[]): CandidateFile {
  return { path: joinFor(ctx)(...parts), scope: 'user', home: ctx.home };
}

/** The project-scope file at `rel` under ctx.projectDir, or nothing without a project. */
export function projectFiles(ctx: ImportContext, ...rel: string[]): CandidateFile[] {
  if (!ctx.projectDir) return [];
  const path = joinFor(ctx)(ctx.projectDir, ...rel);
  return [{ path, scope: 'project', home: ctx.home, workspaceFolder: ctx.projectDir }];
}

/** The path module matching a file's own path (a Windows path has a drive or a UNC prefix). */
export function pathApiOf(path: string): typeof posix {
  return /^[A-Za-z]:[\\/]|^\\\\/.test(path) ? win32 : posix;
}

/**
 * A `${secret:NAME}` name for another host's identifier (a VS Code input id, a Goose env key):
 * characters the name rule refuses become `_`, and it starts with a letter or `_`.
 */
export function secretNameFor(id: string): string {
  const cleaned = id.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 89);
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `_${cleaned}`;
}
