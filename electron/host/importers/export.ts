import type { ExportFormat } from '../../../shared/domain/imports.js';
import type { ServerConfig } from '../../../shared/domain/server-config.js';
import { FORMATS } from './export-formats.js';

/**
 * Servers written out in another host's format, for the person to paste there. Secrets stay
 * references (`${secret:NAME}`, or VS Code's own `${input:NAME}` prompts); the notes say what the
 * other host will need done by hand and which of our settings it has no place for.
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
  /** Shell commands that add the same servers, one per server (Claude Code's `claude mcp add-json`). */
  commands?: string[];
}

/** The servers as a snippet in `format`. */
export function exportServers(format: ExportFormat, servers: readonly ExportServer[]): ExportSnippet {
  const built = FORMATS[format](servers);
  const snippet: ExportSnippet = {
    format,
    text: `${JSON.stringify(built.doc, null, 2)}\n`,
    target: built.target,
    notes: built.notes,
  };
  if (built.commands) snippet.commands = built.commands;
  return snippet;
}
