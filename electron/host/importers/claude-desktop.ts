import { join, win32 } from 'node:path';
import {
  appData,
  isObj,
  parseJsonFile,
  serverMapAt,
  xdgConfig,
  type HostImporter,
  type ParsedServer,
} from './importer.js';

/**
 * Claude Desktop's `claude_desktop_config.json`: `{"mcpServers": {name: {command, args, env}}}`,
 * stdio only (remote servers are added as Connectors in its UI, not in the file). There is no
 * official Linux build; the unofficial ones use `~/.config/Claude`.
 */
export const claudeDesktop: HostImporter = {
  id: 'claude-desktop',
  label: 'Claude Desktop',
  files(ctx) {
    const name = 'claude_desktop_config.json';
    if (ctx.platform === 'darwin')
      return [{ path: join(ctx.home, 'Library', 'Application Support', 'Claude', name), scope: 'user' }];
    if (ctx.platform === 'win32') return [{ path: win32.join(appData(ctx), 'Claude', name), scope: 'user' }];
    return [{ path: join(xdgConfig(ctx), 'Claude', name), scope: 'user' }];
  },
  parse(text) {
    const map = serverMapAt(parseJsonFile(text), 'mcpServers', true);
    // The file's entries are already our shape; a non-object one is reported invalid by the caller.
    return Object.entries(map).map(([name, raw]): ParsedServer => ({
      name,
      entry: isObj(raw) ? { ...raw } : raw,
      notCarried: [],
      inputs: [],
    }));
  },
};
