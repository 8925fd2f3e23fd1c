import type { ExportFormat } from '../../../shared/domain/imports.js';
import type { ServerConfig } from '../../../shared/domain/server-config.js';
import type { ServerSummary } from '../../../shared/domain/server-state.js';
import { maskConfig } from '../config/config-mask.js';
import { exportServers, type ExportServer, type ExportSnippet } from '../importers/export.js';
import { HostFailure } from '../util/errors.js';

/**
 * Servers of ours as a snippet for another host. `${secret:NAME}` references stay references;
 * a secret typed into an entry as a literal is masked (it would otherwise leave through the
 * renderer or a terminal) and the notes say to fill it in there.
 */
export function exportFromHost(
  host: { list(): ServerSummary[]; serverConfig(id: string): ServerConfig | undefined },
  ids: readonly string[] | 'all',
  format: ExportFormat,
): ExportSnippet {
  const known = host.list().map((s) => s.id);
  const chosen = ids === 'all' ? known : [...new Set(ids)];
  const servers: ExportServer[] = [];
  const notes: string[] = [];
  for (const id of chosen) {
    if (!known.includes(id)) throw new HostFailure('unknown_server', `no server named "${id}"`);
    const config = host.serverConfig(id);
    if (!config) {
      notes.push(`"${id}" is left out: its entry is not valid here (fix it under Servers › Edit).`);
      continue;
    }
    const masked = maskConfig(config);
    if (JSON.stringify(masked) !== JSON.stringify(config))
      notes.push(
        `"${id}" has a secret typed into its entry; it is left out of the snippet (shown as ••••••••): fill it in there.`,
      );
    servers.push({ name: id, config: masked });
  }
  if (servers.length === 0 && ids === 'all') notes.push('There are no servers to export.');
  const snippet = exportServers(format, servers);
  return { ...snippet, notes: [...snippet.notes, ...notes] };
}
