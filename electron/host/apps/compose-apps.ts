import type { AuditLog } from '../audit/audit-log.js';
import type { ChatService } from '../chat/chat-service.js';
import type { HostEvents } from '../host-events.js';
import type { McpHost } from '../mcp-host.js';
import type { PendingBroker } from '../pending/pending-broker.js';
import type { FlowGuard } from '../policies/flow-guard.js';
import type { PolicyStore } from '../policies/policy-store.js';
import type { ToolPolicy } from '../policies/tool-policy.js';
import type { RootsStore } from '../roots/roots-store.js';
import type { OpenExternal } from '../elicitation/elicitation-service.js';
import type { DisposeStack } from '../util/disposable.js';
import { AppRequests } from './app-requests.js';
import { AppViews } from './app-views.js';

/** What the MCP Apps services are wired to, from the composition root. */
export interface AppServicesDeps {
  host: McpHost;
  chat: ChatService;
  events: HostEvents;
  audit: AuditLog;
  policies: PolicyStore;
  policy: ToolPolicy;
  /** A view's model context is content others control: the guard notes it. */
  flows?: FlowGuard;
  broker: PendingBroker;
  roots: RootsStore;
  openExternal?: OpenExternal;
}

/** Create the MCP Apps services (views and what they may ask) on the composition root's stack. */
export function composeAppServices(
  d: AppServicesDeps,
  stack: DisposeStack,
): { appViews: AppViews; appRequests: AppRequests } {
  const { host, policies } = d;
  const appViews = stack.use(
    new AppViews({
      catalog: () => host.catalog(),
      serverState: (id) => host.serverState(id),
      read: (id, uri) => host.readResource(id, uri),
      events: d.events,
      audit: d.audit,
      viewsEnabled: (id) => policies.apps.viewsEnabled(id),
      grantedPermissions: (id) => policies.apps.permissions(id),
    }),
  );
  const appRequests = stack.use(
    new AppRequests({
      views: appViews,
      catalog: () => host.catalog(),
      callTool: (serverId, tool, args, callOpts) => host.callTool(serverId, tool, args, callOpts),
      readResource: (id, uri) => host.readResource(id, uri),
      serverLog: (id, text) => host.noteServerLog(id, text),
      send: (conversationId, text, attachments, origin) =>
        d.chat.send(conversationId, text, attachments, origin),
      serverIds: () => host.list().map((s) => s.id),
      policy: d.policy,
      ...(d.flows ? { flows: d.flows } : {}),
      broker: d.broker,
      audit: d.audit,
      roots: () => d.roots.list(),
      allowedCall: (conversationId, callId) => d.chat.allowedCalls.find(conversationId, callId),
      grants: policies.apps,
      ...(d.openExternal ? { openExternal: d.openExternal } : {}),
    }),
  );
  // A view that closes (asked to, or evicted past the cap) ends its approval waits and context.
  const stopFollowing = appViews.onClosed((viewId) => appRequests.forget(viewId));
  stack.use({ dispose: stopFollowing });
  return { appViews, appRequests };
}
