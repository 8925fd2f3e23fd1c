import { homedir } from 'node:os';
import { join } from 'node:path';

/** The product name; Electron derives its userData folder from it, and so do we. */
export const APP_NAME = 'MCP Desk';

/**
 * The data folder shared by the desktop app, browser mode and the CLI. It matches
 * Electron's `app.getPath('userData')` so all three see the same servers.
 * MCP_DESK_DATA_DIR overrides it (tests, portable installs).
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MCP_DESK_DATA_DIR) return env.MCP_DESK_DATA_DIR;
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_NAME);
  if (process.platform === 'win32')
    return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_NAME);
}

/** Where the server list lives inside the data folder. */
export function defaultConfigPath(dataDir: string): string {
  return join(dataDir, 'mcp-servers.json');
}
