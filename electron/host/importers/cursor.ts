import { parseJsonFile, projectFiles, serverMapAt, userFile, type HostImporter } from './importer.js';
import { readJsonServers, type JsonServerStyle } from './json-servers.js';
import { editorVars } from './variables.js';

/**
 * Cursor (docs: cursor.com/docs/context/mcp): `~/.cursor/mcp.json` (Windows
 * `%USERPROFILE%\.cursor\mcp.json`) and a project's `.cursor/mcp.json`, in the `mcpServers`
 * shape. A remote entry has `url` and no `type` (Cursor tries Streamable HTTP, then SSE, as we do
 * without a type); stdio entries may name an `envFile`. Values may use `${env:NAME}`,
 * `${userHome}`, `${workspaceFolder}`, `${workspaceFolderBasename}` and `${pathSeparator}`.
 */
export const cursorStyle: JsonServerStyle = {
  urlKeys: ['url'],
  vars: (file, r) => ({ translate: editorVars(file, r) }),
};

/** Cursor: the user and project mcp.json. */
export const cursor: HostImporter = {
  id: 'cursor',
  label: 'Cursor',
  files(ctx) {
    return [userFile(ctx, ctx.home, '.cursor', 'mcp.json'), ...projectFiles(ctx, '.cursor', 'mcp.json')];
  },
  parse(text, file) {
    return readJsonServers(serverMapAt(parseJsonFile(text), 'mcpServers'), file, cursorStyle);
  },
};
