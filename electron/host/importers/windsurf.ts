import { parseJsonFile, serverMapAt, userFile, type HostImporter } from './importer.js';
import { readJsonServers, type JsonServerStyle } from './json-servers.js';
import { editorVars } from './variables.js';

/**
 * Windsurf (docs: docs.windsurf.com/windsurf/cascade/mcp): `~/.codeium/windsurf/mcp_config.json`
 * (Windows `%USERPROFILE%\.codeium\windsurf\mcp_config.json`, from install guides, not the docs),
 * `mcpServers` with `disabled`; a remote server's URL is `serverUrl` (a Cursor-style `url` is
 * read too). Values may use `${env:VAR}`. `disabledTools` is from Windsurf's own generated files,
 * not its docs.
 */
const style: JsonServerStyle = {
  urlKeys: ['serverUrl', 'url'],
  vars: (file, r) => ({ translate: editorVars(file, r) }),
  extra(r, entry) {
    const off = r.list('disabledTools');
    if (off && off.length > 0) entry.excludeTools = off;
  },
};

/** Windsurf: mcp_config.json. */
export const windsurf: HostImporter = {
  id: 'windsurf',
  label: 'Windsurf',
  files(ctx) {
    return [userFile(ctx, ctx.home, '.codeium', 'windsurf', 'mcp_config.json')];
  },
  parse(text, file) {
    return readJsonServers(serverMapAt(parseJsonFile(text), 'mcpServers'), file, style);
  },
};
