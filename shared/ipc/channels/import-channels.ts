import { z } from 'zod';
import {
  EXPORT_FORMATS,
  type ExportSnippet,
  type ImportHostId,
  type ImportScan,
  type ImportSecret,
} from '../../domain/imports.js';
import type { SecretsNotStored } from '../../domain/server-secrets.js';
import { empty, serverId, typed } from './channel-kit.js';

/**
 * Bringing servers over from other MCP hosts and sending them back: scan this machine for
 * their config files (a preview; literal secrets already shown as references and kept in the
 * host), apply the person's pick, and export servers as a snippet for another host.
 */
export const importChannels = {
  /** Read every other host's config files found here (the shared folders count as project folders). */
  'imports.scan': { request: empty, response: typed<ImportScanResult>() },
  /** Import the chosen candidates of a scan: moved secrets go to the keychain, servers are added and start. */
  'imports.apply': {
    request: z
      .object({
        scanId: z.string().min(1).max(100),
        keys: z.array(z.string().min(1).max(200)).min(1).max(1000),
      })
      .strict(),
    response: typed<ImportApplyResult>(),
  },
  /** Some servers (or all) as a snippet for another host; secrets stay references, typed-in ones are left out. */
  'imports.export': {
    request: z
      .object({
        ids: z.union([z.array(serverId).min(1).max(1000), z.literal('all')]),
        format: z.enum(EXPORT_FORMATS),
      })
      .strict(),
    response: typed<ExportSnippet>(),
  },
} as const;

/** A scan as the view shows it: what was found, and every place looked at (for "nothing found"). */
export interface ImportScanResult extends ImportScan {
  lookedAt: { id: ImportHostId; label: string; paths: string[] }[];
  /** Why the literal secrets the import takes out cannot be stored here (no OS keychain): they stay unset. */
  keychainError?: string;
}

/** One server an import added. */
export interface ImportedServer {
  /** The candidate's key in its scan. */
  key: string;
  /** The name it was saved under. */
  name: string;
  host: ImportHostId;
  sourceName: string;
  /** The config file it came from. */
  file: string;
  /** Its secrets: `moved` ones are now in the keychain, `to-fill` ones wait for the person. */
  secrets: ImportSecret[];
  /** The names of its secrets that still have no stored value (fill them in Servers › Edit). */
  unset: string[];
  /** Its literal secrets that could not be stored (no OS keychain): added with them unset. */
  notStored?: SecretsNotStored;
}

/** What `imports.apply` did. */
export interface ImportApplyResult {
  added: ImportedServer[];
  /** Each candidate not imported, with why (already there, invalid, name taken since the scan…). */
  skipped: { key: string; name: string; reason: string }[];
}
