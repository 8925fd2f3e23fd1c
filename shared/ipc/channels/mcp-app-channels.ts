import { z } from 'zod';
import type { AppPermission, AppViewHandle } from '../../domain/mcp-apps.js';
import type { CallToolResult, ReadResourceResult } from '../../domain/mcp-types.js';
import { serverId, typed } from './channel-kit.js';

/** A host-issued view id: 32 hex characters. */
export const viewId = z.string().regex(/^[0-9a-f]{32}$/, 'not a view id');

/** One content block a view sends (text is what the host uses; other kinds are noted, not kept). */
const contentBlock = z
  .object({ type: z.string().min(1).max(40), text: z.string().max(100_000).optional() })
  .passthrough();
/** Device permissions a person may grant a server's views. */
const appPermission = z.enum(['camera', 'microphone', 'geolocation', 'clipboardWrite']);
/** Log levels of `notifications/message` (RFC 5424, as MCP names them). */
const logLevel = z.enum(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);
/** A JSON object of bounded size (tool arguments, structured content a view sends). */
const jsonObject = z
  .record(z.string(), z.unknown())
  .refine((v) => (JSON.stringify(v)?.length ?? 0) <= 1_000_000, 'larger than 1 MB');

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
  /**
   * The view's `tools/call`: only its own server's tools whose visibility includes "app", through
   * the same approval policy, roots check and audit as a model's call (the card says the view
   * asked); per-view rate limit. Refusals: app_call_refused, rate_limited, view_closed.
   */
  'apps.callTool': {
    request: z
      .object({
        viewId,
        tool: z.string().min(1).max(300),
        args: jsonObject.default({}),
        callId: z.string().min(1).max(200).optional(),
      })
      .strict(),
    response: typed<CallToolResult>(),
  },
  /** The view's `resources/read`, always of its own server. */
  'apps.readResource': {
    request: z.object({ viewId, uri: z.string().min(1).max(4096) }).strict(),
    response: typed<ReadResourceResult>(),
  },
  /** The view's `notifications/message`: one capped line in its server's log. */
  'apps.log': {
    request: z
      .object({ viewId, level: logLevel, logger: z.string().max(200).optional(), data: z.unknown() })
      .strict(),
    response: typed<null>(),
  },
  /** The view's `ui/message`: a user message in its conversation, marked as the view's; the model answers it. */
  'apps.message': {
    request: z.object({ viewId, content: z.array(contentBlock).min(1).max(50) }).strict(),
    response: typed<{ runId?: string }>(),
  },
  /** The view's `ui/update-model-context`: replaces its previous one; added to the conversation's next model turn. */
  'apps.updateModelContext': {
    request: z
      .object({
        viewId,
        content: z.array(contentBlock).max(50).optional(),
        structuredContent: jsonObject.optional(),
      })
      .strict(),
    response: typed<null>(),
  },
  /** The view's `ui/open-link`, after the person agreed: http(s) only, re-checked by the host. */
  'apps.openLink': {
    request: z.object({ viewId, url: z.string().min(1).max(8192) }).strict(),
    response: typed<{ opened: boolean }>(),
  },
  /** The person's device-permission grants for a server's views (replaces the list; audited; revocable in Permissions). */
  'apps.setPermissions': {
    request: z.object({ serverId, permissions: z.array(appPermission).max(4) }).strict(),
    response: typed<AppPermission[]>(),
  },
  /** The per-server "Show interactive views" switch (default on); its state is on `permissions.list` (`apps.viewsEnabled`). */
  'apps.setViewsEnabled': {
    request: z.object({ serverId, enabled: z.boolean() }).strict(),
    response: typed<{ enabled: boolean }>(),
  },
} as const;
