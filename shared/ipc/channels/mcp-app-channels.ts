import { z } from 'zod';
import type { AppViewHandle } from '../../domain/mcp-apps.js';
import { serverId, typed } from './channel-kit.js';

/** A host-issued view id: 32 hex characters. */
export const viewId = z.string().regex(/^[0-9a-f]{32}$/, 'not a view id');

/**
 * MCP Apps views. The renderer opens a view for a tool and names it by `viewId` in every
 * later request; the host decides what the view may do (its server only, tools whose
 * visibility includes "app").
 */
export const mcpAppChannels = {
  /** Open the interactive view of a tool: its HTML, the sandbox page to load and the CSP applied. */
  'apps.open': {
    request: z
      .object({
        serverId,
        tool: z.string().min(1).max(300),
        conversationId: z.string().min(1).max(100).optional(),
        toolCallId: z.string().min(1).max(200).optional(),
      })
      .strict(),
    response: typed<AppViewHandle>(),
  },
  /** The view was removed from the screen; later requests naming it fail with view_closed. */
  'apps.close': { request: z.object({ viewId }).strict(), response: typed<{ closed: boolean }>() },
} as const;
