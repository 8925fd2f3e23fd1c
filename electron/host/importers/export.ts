import type { ExportFormat } from '../../../shared/domain/imports.js';
import type { ServerConfig } from '../../../shared/domain/server-config.js';

/**
 * Servers written out in another host's format, for the person to paste there. Secrets stay
 * references (`${secret:NAME}`); the notes say what the other host will need done by hand.
 */

/** One server to export, as saved in our list. */
export interface ExportServer {
  name: string;
  config: ServerConfig;
}

/** A snippet for another host. */
export interface ExportSnippet {
  format: ExportFormat;
  /** The text to paste (JSON, or a shell command line for Claude Code). */
  text: string;
  /** Where it goes, in plain words ("claude_desktop_config.json, under mcpServers"). */
  target: string;
  /** What will not work there as it is, one sentence each. */
  notes: string[];
}

/** The servers as a snippet in `format`. */
export function exportServers(format: ExportFormat, servers: readonly ExportServer[]): ExportSnippet {
  const map = Object.fromEntries(servers.map((s) => [s.name, s.config]));
  return {
    format,
    text: `${JSON.stringify({ mcpServers: map }, null, 2)}\n`,
    target: 'claude_desktop_config.json, under "mcpServers"',
    notes: [],
  };
}
