// A throwaway HOME holding other MCP hosts' config files, for the import tests (integration,
// CLI, browser). The layout is a list of {path relative to HOME, text}, so a test reads another
// host by adding one line; and a tiny second host, for tests that need two before every real
// importer is in.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  isObj,
  parseJsonFile,
  serverMapAt,
  type HostImporter,
} from '../../electron/host/importers/importer.js';

/** One config file under the fake HOME. */
export interface HostFile {
  /** Relative to HOME, e.g. `.config/Claude/claude_desktop_config.json`. */
  path: string;
  text: string;
}

/** Write each file under `home` (folders made as needed). */
export function writeFakeHome(home: string, files: readonly HostFile[]): void {
  for (const f of files) {
    const path = join(home, f.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, f.text);
  }
}

/** Where Claude Desktop keeps its file on Linux (with XDG_CONFIG_HOME unset or `$HOME/.config`). */
export const CLAUDE_DESKTOP_PATH = '.config/Claude/claude_desktop_config.json';

/** Claude Desktop's file holding `servers`. */
export function claudeDesktopFile(servers: Record<string, unknown>): HostFile {
  return { path: CLAUDE_DESKTOP_PATH, text: `${JSON.stringify({ mcpServers: servers }, null, 2)}\n` };
}

/** The file the test-only second host reads (`~/.test-host/mcp.json`, and a project's own). */
export const TEST_HOST_PATH = '.test-host/mcp.json';

/**
 * A test-only host under the id `cursor` (the real Cursor importer lands with the importers):
 * `{"mcpServers": {...}, "inputs": [{"secret", "from", "description"}]}`, where each input is a
 * value the person must fill in.
 */
export const testHostImporter: HostImporter = {
  id: 'cursor',
  label: 'Test host',
  files: (ctx) => [
    { path: join(ctx.home, TEST_HOST_PATH), scope: 'user' },
    ...(ctx.projectDir ? [{ path: join(ctx.projectDir, TEST_HOST_PATH), scope: 'project' as const }] : []),
  ],
  parse(text) {
    const doc = parseJsonFile(text);
    const map = serverMapAt(doc, 'mcpServers');
    const inputs = isObj(doc) && Array.isArray(doc.inputs) ? doc.inputs.filter(isObj) : [];
    return Object.entries(map).map(([name, raw]) => {
      // A field we have no place for: dropped from the entry and said so.
      const { autoApprove, envFile, ...entry } = isObj(raw)
        ? raw
        : { autoApprove: undefined, envFile: undefined };
      return {
        // VS Code's envFile, as the importers hand it on: an absolute path the import service reads.
        ...(typeof envFile === 'string' ? { envFile } : {}),
        name,
        entry: isObj(raw) ? entry : raw,
        notCarried: autoApprove ? ['Its auto-approve list is not carried over.'] : [],
        inputs: inputs
          .filter((i) => i.server === name)
          .map((i) => ({
            secretName: String(i.secret),
            from: String(i.from),
            ...(typeof i.description === 'string' ? { description: i.description } : {}),
          })),
      };
    });
  },
};
