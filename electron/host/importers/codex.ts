import { parse as parseToml, TomlError } from 'smol-toml';
import { EntryReader, absolutePath, commandLine, parsed, passThrough, put } from './entry-reader.js';
import {
  ImportFileError,
  isObj,
  projectFiles,
  userFile,
  type CandidateFile,
  type HostImporter,
  type ParsedServer,
} from './importer.js';

/**
 * Codex CLI (docs: developers.openai.com/codex/mcp and the config reference; field list from
 * `RawMcpServerConfig` in openai/codex `codex-rs/core/src/config/types.rs`): `[mcp_servers.NAME]`
 * tables in `config.toml` under `$CODEX_HOME` (default `~/.codex`), and a trusted project's
 * `.codex/config.toml`. Stdio: `command`, `args`, `env`, `env_vars` (names passed through from
 * Codex's environment), `cwd`. Streamable HTTP: `url`, `bearer_token_env_var`, `http_headers`,
 * `env_http_headers` (header → variable name). Both: `enabled`, `startup_timeout_sec`
 * (or `_ms`), `tool_timeout_sec`, `enabled_tools`, `disabled_tools`.
 */

type Obj = Record<string, unknown>;

function parseTomlFile(text: string): unknown {
  try {
    return parseToml(text);
  } catch (error) {
    // The message's later lines quote the file; keep the first line and the place only.
    const first = (error as Error).message.split('\n')[0] ?? 'unreadable';
    const where = error instanceof TomlError ? ` at line ${error.line}, column ${error.column}` : '';
    throw new ImportFileError(`not valid TOML: ${first.replace(/^Invalid TOML document: /, '')}${where}`);
  }
}

function envRef(name: string): string {
  return `\${env:${name}}`;
}

/** Headers from literal values, an env-sourced bearer token and env-sourced values, in that order. */
function headers(r: EntryReader): Record<string, string> | undefined {
  const out: Record<string, string> = { ...r.map('http_headers') };
  const bearer = r.str('bearer_token_env_var');
  if (bearer !== undefined) out.Authorization = `Bearer ${envRef(bearer)}`;
  for (const [header, variable] of Object.entries(r.map('env_http_headers') ?? {}))
    out[header] = envRef(variable);
  return Object.keys(out).length > 0 ? out : undefined;
}

/** `env_vars` entries are names (or `{name}` tables in newer versions): each passed through as `${env:NAME}`. */
function passedThrough(r: EntryReader, entry: Obj): void {
  const list = r.take('env_vars');
  if (list === undefined) return;
  if (!Array.isArray(list)) {
    r.note('"env_vars" is not a list of names, so it is left out.');
    return;
  }
  const env = { ...(entry.env as Record<string, string> | undefined) };
  for (const item of list) {
    const name =
      typeof item === 'string' ? item : isObj(item) && typeof item.name === 'string' ? item.name : undefined;
    if (name === undefined) r.note('An "env_vars" item has no variable name, so it is left out.');
    else env[name] ??= envRef(name);
  }
  entry.env = env;
}

function readServer(name: string, raw: unknown, file: CandidateFile): ParsedServer {
  if (!isObj(raw)) return passThrough(name, raw);
  const r = new EntryReader(raw);
  const entry = commandLine(r);
  passedThrough(r, entry);
  const cwd = r.str('cwd');
  if (cwd !== undefined) entry.cwd = absolutePath(cwd, file, 'cwd', r);
  const url = r.str('url');
  if (url !== undefined) {
    entry.url = url;
    entry.type = 'http';
    put(entry, 'headers', headers(r));
  }
  r.drop('bearer_token', 'Codex refuses a literal token there too; put it in the Authorization header.');
  if (r.bool('enabled') === false) entry.disabled = true;
  put(entry, 'timeout', r.timeout('tool_timeout_sec', r.num('tool_timeout_sec'), 's'));
  r.drop('startup_timeout_sec', 'MCP Desk has one per-request timeout, set from "tool_timeout_sec".');
  r.drop('startup_timeout_ms', 'MCP Desk has one per-request timeout, set from "tool_timeout_sec".');
  put(entry, 'includeTools', r.list('enabled_tools'));
  put(entry, 'excludeTools', r.list('disabled_tools'));
  if (r.bool('required') === true)
    r.note('"required" is not carried over: MCP Desk starts without a server that fails, and shows why.');
  const scopes = r.list('scopes');
  if (scopes !== undefined && scopes.length > 0) entry.oauth = { scope: scopes.join(' ') };
  r.drop('oauth_resource', 'MCP Desk sends the server URL as the sign-in resource.');
  return parsed(name, entry, r);
}

/** Codex CLI: the mcp_servers tables of config.toml. */
export const codex: HostImporter = {
  id: 'codex',
  label: 'Codex CLI',
  files(ctx) {
    const home = ctx.env.CODEX_HOME;
    const user = home ? userFile(ctx, home, 'config.toml') : userFile(ctx, ctx.home, '.codex', 'config.toml');
    return [user, ...projectFiles(ctx, '.codex', 'config.toml')];
  },
  parse(text, file) {
    const doc = parseTomlFile(text);
    if (!isObj(doc)) throw new ImportFileError('the file is not a TOML table');
    const map = doc.mcp_servers;
    if (map === undefined) return [];
    if (!isObj(map)) throw new ImportFileError('"mcp_servers" is not a table of servers');
    return Object.entries(map).map(([name, raw]) => readServer(name, raw, file));
  },
};
