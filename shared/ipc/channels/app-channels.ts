import { z } from 'zod';
import { AUDIT_KINDS, type AuditKind, type AuditRecord } from '../../domain/audit.js';
import { convId, empty, typed } from './channel-kit.js';

/** Which audit records to read (see shared/domain/audit.ts). */
const auditQuery = z
  .object({
    serverId: z.string().min(1).max(64).optional(),
    kind: z.enum(AUDIT_KINDS as [AuditKind, ...AuditKind[]]).optional(),
    from: z.number().int().min(0).optional(),
    to: z.number().int().min(0).optional(),
    limit: z.number().int().min(1).max(10_000).optional(),
  })
  .strict();

/** The app around the servers: host info, shared folders (roots), windows and the audit log. */
export const appChannels = {
  /** Host version, mode and where its files live. */
  'host.info': { request: empty, response: typed<HostInfo>() },

  /** The folders shared with servers (roots/list); every uri is a file:// URL. */
  'roots.list': { request: empty, response: typed<RootEntry[]>() },
  /** Replace the roots; each `uri` is an absolute path or a file:// URI (the host refuses anything else). */
  'roots.set': {
    request: z
      .object({
        roots: z
          .array(
            z.object({ uri: z.string().min(1).max(4096), name: z.string().max(200).optional() }).strict(),
          )
          .max(100),
      })
      .strict(),
    response: typed<RootEntry[]>(),
  },

  /**
   * Add folders by local path (a drop in the desktop app, the tray, a picked folder, the CLI):
   * each must be an existing directory; the rest are refused with a reason, not added.
   */
  'roots.add': {
    request: z.object({ paths: z.array(z.string().min(1).max(4096)).min(1).max(100) }).strict(),
    response: typed<RootsAddResult>(),
  },
  /** Open the OS folder picker (desktop app only) and add what the person chose. */
  'roots.pick': { request: empty, response: typed<RootsAddResult>() },

  /** Show a conversation in the main window (the quick-ask window's "open in main window"). */
  'app.showConversation': { request: z.object({ conversationId: convId }).strict(), response: typed<null>() },

  /** The audit log, newest first (500 records unless a limit is given). */
  'audit.query': { request: auditQuery, response: typed<AuditRecord[]>() },
  /** The same records as a JSON Lines file, oldest first. */
  'audit.export': {
    request: auditQuery,
    response: typed<{ filename: string; mimeType: string; content: string }>(),
  },
} as const;

/** What `host.info` answers: version, mode, config path and what the shell can do. */
export interface HostInfo {
  version: string;
  mode: 'electron' | 'browser' | 'cli';
  configPath: string;
  /** What the shell around the host can do (the desktop app has an OS folder picker). */
  features: { folderPicker: boolean };
}

/** What `roots.add` and `roots.pick` did: the new list, and each path added or refused. */
export interface RootsAddResult {
  roots: RootEntry[];
  added: string[];
  refused: { path: string; reason: string }[];
}

/** One shared folder as servers see it in roots/list. */
export interface RootEntry {
  uri: string;
  name?: string;
}
