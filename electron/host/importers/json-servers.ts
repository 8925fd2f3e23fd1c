import { EntryReader, absolutePath, commandLine, parsed, passThrough, put } from './entry-reader.js';
import { isObj, type CandidateFile, type ParsedInput, type ParsedServer } from './importer.js';
import { translateEntry, type Translate } from './variables.js';

/**
 * The `mcpServers` family (Claude Desktop, Claude Code, Cursor, Windsurf, LM Studio): the same
 * command/args/env and url/headers core, differing in the remote URL's key, the variable syntax
 * and a few host fields, which each importer passes in.
 */

type Obj = Record<string, unknown>;

/** How one host of the family differs. */
export interface JsonServerStyle {
  /** Keys read as the remote URL, first present wins (`serverUrl` for Windsurf). */
  urlKeys: readonly string[];
  /** Also read our own fields (disabled, includeTools, timeout, trust, sandbox, oauth): Claude Desktop's shape is our file's. */
  ownFields?: boolean;
  /** The host's placeholder syntax turned into ours, made once per entry. */
  vars?: (file: CandidateFile, r: EntryReader) => EntryVars;
  /** Host-specific keys, read into the entry. */
  extra?: (r: EntryReader, entry: Obj, file: CandidateFile) => void;
}

/** One entry's placeholder translation, and the values it found the person must supply. */
export interface EntryVars {
  translate: Translate;
  /** Asked after translation: VS Code's `${input:…}`s the entry used. */
  inputs?: () => ParsedInput[];
}

/** `type` as ours: stdio is implied by a command, so it is left out; other transports are named. */
export function transportType(type: string | undefined, r: EntryReader): 'http' | 'sse' | undefined {
  if (type === undefined || type === 'stdio') return undefined;
  if (type === 'sse') return 'sse';
  if (['http', 'streamable-http', 'streamableHttp', 'streamable_http'].includes(type)) return 'http';
  r.note(`"type" "${type}" is a transport MCP Desk does not support.`);
  return undefined;
}

/** Our common fields: a tool allow list and deny list, a timeout in ms, trust, sandbox, oauth. */
function readOwnFields(r: EntryReader, entry: Obj): void {
  put(entry, 'disabled', r.bool('disabled'));
  put(entry, 'includeTools', r.list('includeTools'));
  put(entry, 'excludeTools', r.list('excludeTools'));
  put(entry, 'timeout', r.timeout('timeout', r.num('timeout'), 'ms'));
  put(entry, 'trust', r.str('trust'));
  put(entry, 'sandbox', r.bool('sandbox'));
  const oauth = r.take('oauth');
  if (oauth !== undefined) entry.oauth = oauth;
}

/** An env file's path with its variables filled in, or nothing when one cannot be filled in here. */
function translateEnvFile(path: string, translate: Translate, r: EntryReader): string | undefined {
  const before = r.notCarried.length;
  const out = translate(path, 'envFile');
  if (!out.includes('${')) return out;
  r.notCarried.splice(before);
  r.note(`"envFile" (${path}) uses a variable MCP Desk cannot fill in here, so it is not carried over.`);
  return undefined;
}

/** One entry of the family read into our shape. */
export function readJsonServer(
  name: string,
  raw: unknown,
  file: CandidateFile,
  style: JsonServerStyle,
  group?: string,
): ParsedServer {
  if (!isObj(raw)) return passThrough(name, raw);
  const r = new EntryReader(raw);
  const entry = commandLine(r);
  put(entry, 'cwd', r.str('cwd'));
  let url: string | undefined;
  for (const key of style.urlKeys) url ??= r.str(key);
  put(entry, 'url', url);
  put(entry, 'headers', r.map('headers'));
  put(entry, 'type', transportType(r.str('type'), r));
  if (style.ownFields) readOwnFields(r, entry);
  else if (r.bool('disabled') === true) entry.disabled = true;
  style.extra?.(r, entry, file);
  let envFile = r.str('envFile');
  const vars = style.vars?.(file, r);
  if (vars) {
    translateEntry(entry, vars.translate);
    if (envFile !== undefined) envFile = translateEnvFile(envFile, vars.translate, r);
  }
  if (typeof entry.cwd === 'string') entry.cwd = absolutePath(entry.cwd, file, 'cwd', r);
  if (envFile !== undefined) envFile = absolutePath(envFile, file, 'envFile', r);
  if (envFile !== undefined && entry.command === undefined) {
    r.note('"envFile" applies to local servers only, so it is not carried over for this remote server.');
    envFile = undefined;
  }
  return parsed(name, entry, r, { inputs: vars?.inputs?.() ?? [], envFile, group });
}

/** Every entry of a server map read with one style. */
export function readJsonServers(
  map: Obj,
  file: CandidateFile,
  style: JsonServerStyle,
  group?: string,
): ParsedServer[] {
  return Object.entries(map).map(([name, raw]) => readJsonServer(name, raw, file, style, group));
}
