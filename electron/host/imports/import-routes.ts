import { fileURLToPath } from 'node:url';
import type { importChannels } from '../../../shared/ipc/channels/import-channels.js';
import type { McpHost } from '../mcp-host.js';
import type { HandlersOf } from '../route-handlers.js';
import type { RootsStore } from '../roots/roots-store.js';
import { exportFromHost } from './export-from-host.js';
import type { ImportService } from './import-service.js';

/** The imports.* channels: servers brought over from other hosts, and exports for them. */
export function importHandlers(
  imports: ImportService,
  host: McpHost,
  roots: RootsStore,
): HandlersOf<keyof typeof importChannels> {
  return {
    // The shared folders are the project folders whose own config files (.vscode/mcp.json…) count.
    'imports.scan': () => imports.scan(localFolders(roots.list())),
    'imports.apply': (r) => imports.apply(r.scanId, r.keys),
    'imports.export': (r) => exportFromHost(host, r.ids, r.format),
  };
}

/** The local paths of the shared folders (a root that is not a file: URI is not a folder here). */
function localFolders(roots: readonly { uri: string }[]): string[] {
  return roots.flatMap((r) => {
    try {
      return [fileURLToPath(r.uri)];
    } catch {
      return [];
    }
  });
}
