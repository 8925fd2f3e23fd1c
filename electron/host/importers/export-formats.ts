import type { ExportFormat } from '../../../shared/domain/imports.js';
import {
  isStdioConfig,
  type RemoteServerConfig,
  type ServerConfig,
} from '../../../shared/domain/server-config.js';
import { secretRefsOf } from '../../../shared/domain/server-secrets.js';
import type { ExportServer } from './export-types.js';
import { envRefsAsShell, translateEntry } from './variables.js';

/**
 * One builder per export format. Each writes the fields the other host documents (the same
 * ones its importer reads back, so a round trip returns the entries) and names, per server,
 * what it has no place for.
 */

type Obj = Record<string, unknown>;

/** A format's document, where it goes, and its notes. */
export interface BuiltExport {
  doc: Obj;
  target: string;
  notes: string[];
  commands?: string[];
}

/** Our fields, as a sentence names them when another host lacks them. */
const OUR_FIELDS: Record<string, string> = {
  disabled: 'switching it off',
  includeTools: 'its list of tools to offer',
  excludeTools: 'its list of tools to hide',
  timeout: 'its timeout',
  trust: 'its trust setting',
  sandbox: 'running in the sandbox',
  cwd: 'its working folder',
  oauth: 'its OAuth settings',
};

function lacking(s: ExportServer, fields: readonly string[], host: string, notes: string[]): void {
  const c = s.config as Obj;
  const missing = fields.filter((f) => c[f] !== undefined && c[f] !== false);
  if (missing.length === 0) return;
  const what = missing.map((f) => OUR_FIELDS[f] ?? f).join(', ');
  notes.push(
    `"${s.name}": ${host} has no place for ${what}, so ${missing.length === 1 ? 'it is' : 'they are'} left out.`,
  );
}

/** The keychain references left in what was written (not in fields the format dropped). */
function secretNote(name: string, written: Obj, host: string, how: string, notes: string[]): void {
  const refs = secretRefsOf(written);
  if (refs.length === 0) return;
  const list = refs.map((r) => `\${secret:${r}}`).join(', ');
  notes.push(
    `"${name}" uses ${list}: ${host} cannot read MCP Desk's keychain, so replace ${refs.length === 1 ? 'it' : 'each'} with the value${how} after pasting.`,
  );
}

function put(o: Obj, key: string, value: unknown): void {
  if (value !== undefined) o[key] = value;
}

function stdioCore(c: Extract<ServerConfig, { command: string }>): Obj {
  const o: Obj = { command: c.command };
  put(o, 'args', c.args);
  put(o, 'env', c.env);
  return o;
}

function remoteCore(c: RemoteServerConfig): Obj {
  const o: Obj = { url: c.url };
  put(o, 'headers', c.headers);
  return o;
}

/** `http` unless the entry says SSE: a typeless entry (ours tries both) is written as HTTP. */
function remoteType(c: RemoteServerConfig): 'http' | 'sse' {
  return c.type === 'sse' ? 'sse' : 'http';
}

const COMMON = ['disabled', 'includeTools', 'excludeTools', 'timeout', 'trust'] as const;

function claudeDesktop(servers: readonly ExportServer[]): BuiltExport {
  const notes: string[] = [];
  const mcpServers: Obj = {};
  for (const s of servers) {
    const c = s.config;
    if (!isStdioConfig(c)) {
      notes.push(
        `"${s.name}" is a remote server: Claude Desktop's file takes local servers only, so it is left out. Add it in Claude Desktop under Settings › Connectors › Add custom connector with the URL ${c.url}${c.headers ? ' (connectors take no custom headers: the server must accept OAuth sign-in)' : ''}.`,
      );
      continue;
    }
    mcpServers[s.name] = stdioCore(c);
    lacking(s, [...COMMON, 'sandbox', 'cwd'], 'Claude Desktop', notes);
    secretNote(s.name, stdioCore(c), 'Claude Desktop', '', notes);
    if (JSON.stringify(c).includes('${env:'))
      notes.push(`"${s.name}" uses \${env:…}, which Claude Desktop does not expand: write the values in.`);
  }
  return { doc: { mcpServers }, target: 'claude_desktop_config.json, under "mcpServers"', notes };
}

function vscode(servers: readonly ExportServer[]): BuiltExport {
  const notes: string[] = [];
  const out: Obj = {};
  const inputs = new Set<string>();
  for (const s of servers) {
    const c = s.config;
    let o: Obj;
    if (isStdioConfig(c)) {
      o = { type: 'stdio', ...stdioCore(c) };
      put(o, 'cwd', c.cwd);
      if (c.sandbox === true) o.sandboxEnabled = true;
      lacking(s, COMMON, 'VS Code', notes);
    } else {
      o = { type: remoteType(c), ...remoteCore(c) };
      if (c.oauth?.clientId) o.oauth = { clientId: c.oauth.clientId };
      const rest = Object.keys(c.oauth ?? {}).filter((k) => k !== 'clientId');
      if (rest.length > 0)
        notes.push(
          `"${s.name}": VS Code's oauth takes a client ID only; ${rest.join(', ')} ${rest.length === 1 ? 'is' : 'are'} left out.`,
        );
      lacking(s, COMMON, 'VS Code', notes);
    }
    for (const name of secretRefsOf(o)) inputs.add(name);
    translateEntry(o, (text) => text.replace(/\$\{secret:([A-Za-z_][A-Za-z0-9_.-]*)\}/g, '${input:$1}'));
    out[s.name] = o;
  }
  const doc: Obj = { servers: out };
  if (inputs.size > 0) {
    doc.inputs = [...inputs].map((id) => ({
      type: 'promptString',
      id,
      description: `${id} (kept in MCP Desk's keychain)`,
      password: true,
    }));
    notes.push(
      'VS Code asks once for each input when the server first starts: enter the same values as in MCP Desk.',
    );
  }
  return {
    doc,
    target: '.vscode/mcp.json in a workspace, or your user mcp.json (MCP: Open User Configuration)',
    notes,
  };
}

function cursor(servers: readonly ExportServer[]): BuiltExport {
  const notes: string[] = [];
  const mcpServers: Obj = {};
  for (const s of servers) {
    const c = s.config;
    const o = isStdioConfig(c) ? stdioCore(c) : remoteCore(c);
    mcpServers[s.name] = o;
    lacking(s, [...COMMON, 'sandbox', 'cwd', 'oauth'], 'Cursor', notes);
    secretNote(s.name, o, 'Cursor', ' (or with ${env:NAME} and set that variable)', notes);
  }
  return {
    doc: { mcpServers },
    target: '~/.cursor/mcp.json, or .cursor/mcp.json in a project, under "mcpServers"',
    notes,
  };
}

function geminiOAuth(s: ExportServer, c: RemoteServerConfig, notes: string[]): Obj | undefined {
  if (!c.oauth) return undefined;
  const o: Obj = {};
  put(o, 'clientId', c.oauth.clientId);
  put(o, 'clientSecret', c.oauth.clientSecret);
  if (c.oauth.scope) o.scopes = c.oauth.scope.split(' ').filter(Boolean);
  if (c.oauth.clientMetadataUrl)
    notes.push(`"${s.name}": gemini-cli has no client metadata URL setting, so it is left out.`);
  return Object.keys(o).length > 0 ? o : undefined;
}

function geminiCli(servers: readonly ExportServer[]): BuiltExport {
  const notes: string[] = [];
  const mcpServers: Obj = {};
  const excluded: string[] = [];
  for (const s of servers) {
    const c = s.config;
    let o: Obj;
    if (isStdioConfig(c)) {
      o = stdioCore(c);
      put(o, 'cwd', c.cwd);
      lacking(s, ['sandbox'], 'gemini-cli', notes);
    } else {
      // gemini-cli's documented split: `url` is SSE, `httpUrl` Streamable HTTP.
      o = c.type === 'sse' ? { url: c.url } : { httpUrl: c.url };
      put(o, 'headers', c.headers);
      put(o, 'oauth', geminiOAuth(s, c, notes));
    }
    put(o, 'timeout', c.timeout);
    if (c.trust !== undefined) o.trust = c.trust === 'trusted';
    put(o, 'includeTools', c.includeTools);
    put(o, 'excludeTools', c.excludeTools);
    if (c.disabled === true) excluded.push(s.name);
    translateEntry(o, envRefsAsShell);
    mcpServers[s.name] = o;
    secretNote(s.name, o, 'gemini-cli', ' (or with $NAME and set that variable)', notes);
  }
  const doc: Obj = { mcpServers };
  if (excluded.length > 0) {
    doc.mcp = { excluded };
    notes.push(
      'Switched-off servers are listed in "mcp.excluded": merge it with that list if your settings have one.',
    );
  }
  return {
    doc,
    target: '~/.gemini/settings.json, or .gemini/settings.json in a project, under "mcpServers"',
    notes,
  };
}

/** POSIX shell single quotes around any text. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function claudeCode(servers: readonly ExportServer[]): BuiltExport {
  const notes: string[] = [];
  const mcpServers: Obj = {};
  const commands: string[] = [];
  for (const s of servers) {
    const c = s.config;
    const o: Obj = isStdioConfig(c)
      ? { type: 'stdio', ...stdioCore(c) }
      : { type: remoteType(c), ...remoteCore(c) };
    translateEntry(o, envRefsAsShell);
    mcpServers[s.name] = o;
    commands.push(`claude mcp add-json ${shellQuote(s.name)} ${shellQuote(JSON.stringify(o))}`);
    lacking(s, [...COMMON, 'sandbox', 'cwd', 'oauth'], 'Claude Code', notes);
    secretNote(s.name, o, 'Claude Code', ' (or with ${NAME} and set that variable)', notes);
  }
  notes.push('Or run the commands (a POSIX shell); add --scope user to have a server in every project.');
  return {
    doc: { mcpServers },
    target: '.mcp.json at the root of a project, under "mcpServers"',
    notes,
    commands,
  };
}

/** The builder of each export format. */
export const FORMATS: Record<ExportFormat, (servers: readonly ExportServer[]) => BuiltExport> = {
  'claude-desktop': claudeDesktop,
  vscode,
  cursor,
  'gemini-cli': geminiCli,
  'claude-code': claudeCode,
};
