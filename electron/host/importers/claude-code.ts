import type { EntryReader } from './entry-reader.js';
import {
  ImportFileError,
  isObj,
  parseJsonFile,
  projectFiles,
  serverMapAt,
  userFile,
  type HostImporter,
  type ParsedServer,
} from './importer.js';
import { readJsonServers, type JsonServerStyle } from './json-servers.js';
import { claudeCodeVars } from './variables.js';

/**
 * Claude Code (docs: code.claude.com/docs/en/mcp, "MCP installation scopes"): `~/.claude.json`
 * holds user-scope servers at the top-level `mcpServers` and local-scope ones under
 * `projects["<absolute path>"].mcpServers` (each read as its own group, the project path);
 * a project's shared servers are in `<project>/.mcp.json`. Entries carry `type`
 * (stdio/http/sse); `${VAR}` and `${VAR:-default}` are expanded in command, args, env, url and
 * headers. `CLAUDE_CONFIG_DIR` moving `.claude.json` is from the CLI's behaviour, not its docs.
 */

type Obj = Record<string, unknown>;

function readOAuth(r: EntryReader, entry: Obj): void {
  const oauth = r.obj('oauth');
  if (oauth === undefined) return;
  if (typeof oauth.clientId === 'string') entry.oauth = { clientId: oauth.clientId };
  for (const key of Object.keys(oauth).filter((k) => k !== 'clientId'))
    r.note(`oauth.${key} is not carried over: MCP Desk picks its own sign-in callback.`);
}

const style: JsonServerStyle = {
  urlKeys: ['url'],
  vars: (_file, r) => ({ translate: claudeCodeVars(r) }),
  extra(r, entry) {
    r.drop(
      'headersHelper',
      'it runs a command to make headers; MCP Desk sends fixed headers (put a token in the keychain as ${secret:NAME}).',
    );
    readOAuth(r, entry);
  },
};

/** Claude Code: ~/.claude.json (user scope and per-project groups) and a project's .mcp.json. */
export const claudeCode: HostImporter = {
  id: 'claude-code',
  label: 'Claude Code',
  files(ctx) {
    const dir = ctx.env.CLAUDE_CONFIG_DIR ?? ctx.home;
    return [userFile(ctx, dir, '.claude.json'), ...projectFiles(ctx, '.mcp.json')];
  },
  parse(text, file) {
    const doc = parseJsonFile(text);
    if (file.scope === 'project') return readJsonServers(serverMapAt(doc, 'mcpServers'), file, style);
    const servers: ParsedServer[] = readJsonServers(serverMapAt(doc, 'mcpServers', true), file, style);
    const projects = (doc as Obj).projects;
    if (projects === undefined) return servers;
    if (!isObj(projects)) throw new ImportFileError('"projects" is not an object of project folders');
    for (const [path, project] of Object.entries(projects)) {
      if (!isObj(project) || project.mcpServers === undefined) continue;
      if (!isObj(project.mcpServers))
        throw new ImportFileError(`projects["${path}"].mcpServers is not an object of servers`);
      // The project folder is where its servers ran: relative paths there resolve against it.
      const local = { ...file, workspaceFolder: path };
      servers.push(...readJsonServers(project.mcpServers, local, style, path));
    }
    return servers;
  },
};
