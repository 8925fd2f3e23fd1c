import type { ExportFormat } from '../../../shared/domain/imports.js';
import type { ServerConfig } from '../../../shared/domain/server-config.js';

/** The shapes of an export (apart from export.ts so the format builders can use them without a cycle). */

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
