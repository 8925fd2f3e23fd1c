import {
  appData,
  joinFor,
  parseJsonFile,
  serverMapAt,
  userFile,
  xdgConfig,
  type HostImporter,
} from './importer.js';
import { readJsonServers } from './json-servers.js';

/**
 * Claude Desktop's `claude_desktop_config.json`: `{"mcpServers": {name: {command, args, env}}}`,
 * stdio only (remote servers are added as Connectors in its UI, not in the file). Its shape is our
 * own file's, so our extra fields are read too. Paths: modelcontextprotocol.io's "Connect to local
 * MCP servers" guide (macOS, Windows). There is no official Linux build; the unofficial ones use
 * `~/.config/Claude` (not from a primary source).
 */
export const claudeDesktop: HostImporter = {
  id: 'claude-desktop',
  label: 'Claude Desktop',
  files(ctx) {
    const name = 'claude_desktop_config.json';
    if (ctx.platform === 'darwin')
      return [userFile(ctx, ctx.home, 'Library', 'Application Support', 'Claude', name)];
    if (ctx.platform === 'win32') return [userFile(ctx, appData(ctx), 'Claude', name)];
    return [userFile(ctx, joinFor(ctx)(xdgConfig(ctx), 'Claude', name))];
  },
  parse(text, file) {
    return readJsonServers(serverMapAt(parseJsonFile(text), 'mcpServers', true), file, {
      urlKeys: ['url'],
      ownFields: true,
    });
  },
};
