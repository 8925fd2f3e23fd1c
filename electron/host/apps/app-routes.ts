import type { mcpAppChannels } from '../../../shared/ipc/channels/mcp-app-channels.js';
import type { HandlersOf } from '../route-handlers.js';
import type { AppRequests } from './app-requests.js';
import type { AppViews } from './app-views.js';

/** The apps.* channels: opening and closing MCP Apps views, and what an open view asks of the host. */
export function appHandlers(
  appViews: AppViews,
  appRequests: AppRequests,
): HandlersOf<keyof typeof mcpAppChannels> {
  return {
    'apps.open': (r) =>
      appViews.open({
        serverId: r.serverId,
        toolName: r.tool,
        ...(r.conversationId ? { conversationId: r.conversationId } : {}),
        ...(r.toolCallId ? { toolCallId: r.toolCallId } : {}),
      }),
    'apps.close': (r) => ({ closed: appViews.close(r.viewId) }),
    'apps.callTool': (r) => appRequests.callTool(r.viewId, r.tool, r.args, r.callId),
    'apps.readResource': (r) => appRequests.readResource(r.viewId, r.uri),
    'apps.log': (r) => appRequests.log(r.viewId, r.level, r.logger, r.data),
    'apps.message': (r) => appRequests.message(r.viewId, r.content),
    'apps.updateModelContext': (r) =>
      appRequests.updateModelContext(r.viewId, {
        ...(r.content ? { content: r.content } : {}),
        ...(r.structuredContent ? { structuredContent: r.structuredContent } : {}),
      }),
    'apps.openLink': (r) => appRequests.openLink(r.viewId, r.url),
    'apps.setPermissions': (r) => appRequests.setPermissions(r.serverId, r.permissions),
    'apps.setViewsEnabled': (r) => appRequests.setViewsEnabled(r.serverId, r.enabled),
  };
}
