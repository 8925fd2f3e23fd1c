import { EntryReader, absolutePath, commandLine, parsed, passThrough, put } from './entry-reader.js';
import {
  ImportFileError,
  isObj,
  parseJsoncFile,
  projectFiles,
  userFile,
  type CandidateFile,
  type HostImporter,
  type ParsedServer,
} from './importer.js';
import { shellVars, translateEntry } from './variables.js';

/**
 * gemini-cli (docs: google-gemini/gemini-cli `docs/tools/mcp-server.md`): `mcpServers` in
 * `~/.gemini/settings.json` and a project's `.gemini/settings.json` (JSON with comments, as the
 * docs' own examples show). `httpUrl` is Streamable HTTP and `url` is SSE; newer versions accept
 * `url` with `type` "http"/"sse" instead. `timeout` is in ms, `trust: true` skips confirmations,
 * `includeTools`/`excludeTools` filter tools; `$VAR`/`${VAR}` come from its environment. The
 * top-level `mcp.allowed`/`mcp.excluded` lists switch servers off by name.
 */

type Obj = Record<string, unknown>;

function readOAuth(r: EntryReader, entry: Obj): void {
  const oauth = r.obj('oauth');
  if (oauth === undefined) return;
  const ours: Obj = {};
  const skipped: string[] = [];
  for (const [key, value] of Object.entries(oauth)) {
    if (key === 'clientId' && typeof value === 'string') ours.clientId = value;
    else if (key === 'clientSecret' && typeof value === 'string') ours.clientSecret = value;
    else if (key === 'scopes' && Array.isArray(value) && value.every((s) => typeof s === 'string'))
      ours.scope = value.join(' ');
    else if (key !== 'enabled') skipped.push(key);
  }
  if (oauth.enabled === false)
    r.note('oauth.enabled is false there; MCP Desk signs in whenever the server asks.');
  if (Object.keys(ours).length > 0) entry.oauth = ours;
  for (const key of skipped)
    r.note(
      `oauth.${key} is not carried over: MCP Desk discovers sign-in endpoints and picks its own callback.`,
    );
}

function remote(r: EntryReader, entry: Obj): void {
  const httpUrl = r.str('httpUrl');
  const url = r.str('url');
  const type = r.str('type');
  if (httpUrl !== undefined) {
    entry.url = httpUrl;
    entry.type = 'http';
    if (url !== undefined) r.note('It has both "httpUrl" and "url": "httpUrl" (Streamable HTTP) is used.');
  } else if (url !== undefined) {
    entry.url = url;
    entry.type = type === 'http' || type === 'streamable-http' ? 'http' : 'sse';
  }
  if (type !== undefined && !['http', 'sse', 'streamable-http'].includes(type))
    r.note(`"type" "${type}" is a transport MCP Desk does not support.`);
  put(entry, 'headers', r.map('headers'));
  readOAuth(r, entry);
  if (r.raw.authProviderType === 'dynamic_discovery') r.ignore('authProviderType');
  else r.drop('authProviderType', 'Google credentials and service-account sign-in are gemini-cli features.');
  r.drop('targetAudience', "it belongs to gemini-cli's service-account sign-in.");
  r.drop('targetServiceAccount', "it belongs to gemini-cli's service-account sign-in.");
  r.drop('tcp', 'MCP Desk has no WebSocket transport.');
}

function readServer(
  name: string,
  raw: unknown,
  file: CandidateFile,
  off: (name: string) => boolean,
): ParsedServer {
  if (!isObj(raw)) return passThrough(name, raw);
  const r = new EntryReader(raw);
  const entry = commandLine(r);
  put(entry, 'cwd', r.str('cwd'));
  remote(r, entry);
  put(entry, 'timeout', r.timeout('timeout', r.num('timeout'), 'ms'));
  const trust = r.bool('trust');
  if (trust !== undefined) entry.trust = trust ? 'trusted' : 'untrusted';
  put(entry, 'includeTools', r.list('includeTools'));
  put(entry, 'excludeTools', r.list('excludeTools'));
  if (off(name)) entry.disabled = true;
  r.ignore('description', 'extensionName');
  translateEntry(entry, shellVars());
  if (typeof entry.cwd === 'string') entry.cwd = absolutePath(entry.cwd, file, 'cwd', r);
  return parsed(name, entry, r);
}

function names(value: unknown, key: string): Set<string> | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw new ImportFileError(`"mcp.${key}" is not a list of server names`);
  return new Set(value.filter((v): v is string => typeof v === 'string'));
}

/** gemini-cli: mcpServers of the user and project settings.json. */
export const geminiCli: HostImporter = {
  id: 'gemini-cli',
  label: 'Gemini CLI',
  files(ctx) {
    return [
      userFile(ctx, ctx.home, '.gemini', 'settings.json'),
      ...projectFiles(ctx, '.gemini', 'settings.json'),
    ];
  },
  parse(text, file) {
    const doc = parseJsoncFile(text);
    if (!isObj(doc)) throw new ImportFileError('the file is not a JSON object');
    const map = doc.mcpServers;
    if (map === undefined) return [];
    if (!isObj(map)) throw new ImportFileError('"mcpServers" is not an object of servers');
    const mcp = isObj(doc.mcp) ? doc.mcp : {};
    const allowed = names(mcp.allowed, 'allowed');
    const excluded = names(mcp.excluded, 'excluded');
    const off = (name: string) =>
      excluded?.has(name) === true || (allowed !== undefined && !allowed.has(name));
    return Object.entries(map).map(([name, raw]) => readServer(name, raw, file, off));
  },
};
