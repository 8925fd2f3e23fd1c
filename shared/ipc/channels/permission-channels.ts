import { z } from 'zod';
import type { PermissionsSnapshot } from '../../domain/permissions.js';
import { empty, serverId, typed } from './channel-kit.js';

const toolName = z.string().min(1).max(300);

/** Standing permissions: list them, take one or all of a server's back, and a server's Trust switch. */
export const permissionChannels = {
  /** Every configured server's trust, "always allowed" tools and sampling decision (and leftovers of removed ones). */
  'permissions.list': { request: empty, response: typed<PermissionsSnapshot>() },
  /** Take back one permission; answers the new list. */
  'permissions.revoke': {
    request: z.discriminatedUnion('kind', [
      z.object({ serverId, kind: z.literal('tool'), tool: toolName }).strict(),
      z.object({ serverId, kind: z.literal('trust') }).strict(),
      z.object({ serverId, kind: z.literal('sampling') }).strict(),
      z.object({ serverId, kind: z.literal('app-permissions') }).strict(),
      z.object({ serverId, kind: z.literal('flow-labels'), tool: toolName.optional() }).strict(),
    ]),
    response: typed<PermissionsSnapshot>(),
  },
  /** Take back everything about one server; answers the new list. */
  'permissions.revokeServer': {
    request: z.object({ serverId }).strict(),
    response: typed<PermissionsSnapshot>(),
  },
  /** Turn a server's trust on or off; answers the new list. */
  'permissions.setTrust': {
    request: z.object({ serverId, trusted: z.boolean() }).strict(),
    response: typed<PermissionsSnapshot>(),
  },
} as const;
