import type { ServerConfig } from '../../../shared/domain/server-config.js';

/** The shapes of an export (apart from export.ts so the format builders can use them without a cycle). */

/** One server to export, as saved in our list. */
export interface ExportServer {
  name: string;
  config: ServerConfig;
}

export type { ExportSnippet } from '../../../shared/domain/imports.js';
