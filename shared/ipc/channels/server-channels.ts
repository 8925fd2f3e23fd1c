import { z } from 'zod';
import {
  MAX_SERVER_SECRET_LENGTH,
  SERVER_SECRET_NAME,
  type SecretsNotStored,
  type ServerSecretStatus,
} from '../../domain/server-secrets.js';
import { serverConfigSchema, serverNameSchema } from '../../domain/server-config.js';
import type { LogLine, ServerSummary, TraceEntry } from '../../domain/server-state.js';
import { empty, serverId, typed } from './channel-kit.js';

const serverSecretName = z
  .string()
  .regex(
    SERVER_SECRET_NAME,
    'not a secret name (a letter or "_" first, then letters, digits, "_", "." and "-", at most 90)',
  );

/** Servers: their configs, lifecycle, output, sign-in and the secrets their configs reference. */
export const serverChannels = {
  'servers.list': { request: empty, response: typed<ServerSummary[]>() },
  'servers.add': {
    request: z.object({ name: serverNameSchema, config: serverConfigSchema }).strict(),
    response: typed<ServerSummary>(),
  },
  /** Replace a server's config; masked values sent back unchanged keep the stored value. */
  'servers.update': {
    request: z.object({ id: serverId, config: serverConfigSchema }).strict(),
    response: typed<ServerSummary>(),
  },
  'servers.remove': { request: z.object({ id: serverId }).strict(), response: typed<null>() },
  'servers.setEnabled': {
    request: z.object({ id: serverId, enabled: z.boolean() }).strict(),
    response: typed<ServerSummary>(),
  },
  'servers.restart': { request: z.object({ id: serverId }).strict(), response: typed<ServerSummary>() },
  /** Import an `mcpServers` JSON document (claude_desktop_config.json, .vscode/mcp.json). */
  'servers.import': {
    request: z.object({ json: z.string().max(2_000_000) }).strict(),
    response: typed<ImportResult>(),
  },
  'servers.log': { request: z.object({ id: serverId }).strict(), response: typed<LogLine[]>() },
  'servers.trace': { request: z.object({ id: serverId }).strict(), response: typed<TraceEntry[]>() },

  /** Sign in to a remote server in the system browser; resolves once connected (no token crosses). */
  'auth.signIn': { request: z.object({ serverId }).strict(), response: typed<null>() },
  /** Cancel a sign-in under way. */
  'auth.cancel': { request: z.object({ serverId }).strict(), response: typed<{ cancelled: boolean }>() },
  /** Forget a remote server's tokens (from the keychain) and reconnect. */
  'auth.signOut': { request: z.object({ serverId }).strict(), response: typed<null>() },

  /** `${secret:NAME}` values of server configs, write-only too: which are referenced and set, never a value. */
  'serverSecrets.list': { request: empty, response: typed<ServerSecretStatus[]>() },
  'serverSecrets.set': {
    request: z
      .object({ name: serverSecretName, value: z.string().min(1).max(MAX_SERVER_SECRET_LENGTH) })
      .strict(),
    response: typed<ServerSecretStatus[]>(),
  },
  'serverSecrets.delete': {
    request: z.object({ name: serverSecretName }).strict(),
    response: typed<ServerSecretStatus[]>(),
  },
} as const;

/** What `servers.import` did: the servers added, and each entry skipped with a reason. */
export interface ImportResult {
  added: string[];
  skipped: { name: string; reason: string }[];
  /** Literal secrets found in the added servers and moved into the keychain (names, never values). */
  secrets?: { server: string; name: string; from: string }[];
  /** Added servers whose literal secrets were taken out but could not be stored (no OS keychain). */
  notStored?: (SecretsNotStored & { server: string })[];
}
