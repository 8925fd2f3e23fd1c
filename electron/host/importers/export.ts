import type { ExportFormat } from '../../../shared/domain/imports.js';
import { FORMATS } from './export-formats.js';
import type { ExportServer, ExportSnippet } from './export-types.js';

/**
 * Servers written out in another host's format, for the person to paste there. Secrets stay
 * references (`${secret:NAME}`, or VS Code's own `${input:NAME}` prompts); the notes say what the
 * other host will need done by hand and which of our settings it has no place for.
 */

export type { ExportServer, ExportSnippet } from './export-types.js';

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
