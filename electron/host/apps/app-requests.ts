import type { MessageOrigin } from '../../../shared/domain/chat.js';
import type { AppPermission } from '../../../shared/domain/mcp-apps.js';
import type { CallToolResult, ReadResourceResult } from '../../../shared/domain/mcp-types.js';
import type { AppGrantsStore } from '../policies/app-grants-store.js';
import { RateLimiter } from '../sampling/rate-limiter.js';
import type { Disposable } from '../util/disposable.js';
import { HostFailure } from '../util/errors.js';
import { checkExternalUrl } from '../util/external-url.js';
import type { FlowGuard } from '../policies/flow-guard.js';
import { AppModelContext, renderViewContext, type ViewContext } from './app-model-context.js';
import { AppToolCalls, type AppToolCallsDeps } from './app-tool-calls.js';
import { auditView, type AppViews, type OpenView } from './app-views.js';

/** The longest log line a view may write into its server's log (characters). */
export const MAX_APP_LOG_CHARS = 2000;
/** The longest message a view may add to a conversation (characters). */
export const MAX_APP_MESSAGE_CHARS = 20_000;

/** What the view's requests reach in the rest of the host. */
export interface AppRequestsDeps extends AppToolCallsDeps {
  views: Pick<AppViews, 'view' | 'list'>;
  readResource: (serverId: string, uri: string) => Promise<ReadResourceResult>;
  /** Write a line into a server's log (McpHost.noteServerLog). */
  serverLog: (serverId: string, text: string) => void;
  /** Start a chat run from a message (ChatService.send). */
  send: (
    conversationId: string,
    text: string,
    attachments: [],
    origin: MessageOrigin,
  ) => Promise<{ runId: string }>;
  /** Known server ids (a grant for a server that does not exist is refused). */
  serverIds: () => string[];
  grants: AppGrantsStore;
  /** The host's checked opener (the system browser); absent where nothing can be opened (CLI, tests). */
  openExternal?: (url: string) => Promise<void>;
  /** The flow guard: a view's model context taints its conversation (absent: not tracked). */
  flows?: Pick<FlowGuard, 'noteViewContext'>;
}

/**
 * Every request an MCP App view makes of the host (besides opening and closing), each naming
 * the view by its id: `view()` fails with view_closed for an unknown or closed one, so a view
 * can only act as itself, on its own server, while it is open. Reads, logs and messages share
 * a per-view bucket apart from tool calls (AppToolCalls has its own).
 */
export class AppRequests implements Disposable {
  /** What views last reported for their conversation's next model turn. */
  readonly context = new AppModelContext();
  private readonly tools: AppToolCalls;
  private readonly other = new RateLimiter(40, 2000);

  constructor(private readonly deps: AppRequestsDeps) {
    this.tools = new AppToolCalls(deps);
  }

  /** `tools/call` from the view (see AppToolCalls). */
  callTool(
    viewId: string,
    tool: string,
    args: Record<string, unknown>,
    callId?: string,
  ): Promise<CallToolResult> {
    return this.tools.call(this.deps.views.view(viewId), tool, args, callId);
  }

  /** `resources/read` from the view: always of its own server (file:// stays inside the shared folders). */
  readResource(viewId: string, uri: string): Promise<ReadResourceResult> {
    const view = this.limited(viewId);
    return this.deps.readResource(view.serverId, uri);
  }

  /** `notifications/message` from the view: one capped line in its server's log; a flood is dropped there. */
  log(viewId: string, level: string, logger: string | undefined, data: unknown): null {
    const view = this.deps.views.view(viewId);
    const text = typeof data === 'string' ? data : (JSON.stringify(data) ?? String(data));
    const clipped = text.length > MAX_APP_LOG_CHARS ? `${text.slice(0, MAX_APP_LOG_CHARS)}…` : text;
    this.deps.serverLog(
      view.serverId,
      `[${level}] view of ${view.toolName}${logger ? ` ${logger.slice(0, 100)}` : ''}: ${clipped}`,
    );
    return null;
  }

  /** `ui/message`: a user message in the view's conversation, marked as the view's, answered by the model. */
  async message(viewId: string, content: { type: string; text?: string }[]): Promise<{ runId?: string }> {
    const view = this.limited(viewId);
    if (!view.conversationId)
      throw new HostFailure(
        'app_call_refused',
        'This view is not part of a conversation, so it cannot send messages.',
      );
    const text = content
      .filter((b) => b.type === 'text' && b.text)
      .map((b) => b.text)
      .join('\n');
    if (!text.trim()) throw new HostFailure('invalid_request', 'The view sent a message without text.');
    if (text.length > MAX_APP_MESSAGE_CHARS)
      throw new HostFailure(
        'invalid_request',
        `The view's message is longer than ${MAX_APP_MESSAGE_CHARS} characters.`,
      );
    const { runId } = await this.deps.send(view.conversationId, text, [], {
      kind: 'app',
      serverId: view.serverId,
      tool: view.toolName,
    });
    auditView(this.deps.audit, view, 'message', { chars: text.length });
    return { runId };
  }

  /** `ui/update-model-context`: replaces the view's previous context (ignored outside a conversation). */
  updateModelContext(viewId: string, update: ViewContext): null {
    const view = this.limited(viewId);
    if (view.conversationId) {
      this.context.set({ ...view, conversationId: view.conversationId }, update);
      this.deps.flows?.noteViewContext(
        view.conversationId,
        view.serverId,
        view.toolName,
        renderViewContext(update),
      );
    }
    return null;
  }

  /** The notes for a conversation's next model turn (ChatService's `viewContext`). */
  contextFor(conversationId: string): string[] {
    const open = new Set(this.deps.views.list().map((v) => v.viewId));
    return this.context.notesFor(conversationId, (id) => open.has(id));
  }

  /** `ui/open-link` after the person agreed (the renderer asks): http(s) only, re-checked here. */
  async openLink(viewId: string, url: string): Promise<{ opened: boolean }> {
    const view = this.limited(viewId);
    const safe = checkExternalUrl(url);
    if (!safe) {
      auditView(this.deps.audit, view, 'link-refused', {});
      throw new HostFailure(
        'app_call_refused',
        'Only http and https links without a user name or password can be opened.',
      );
    }
    if (!this.deps.openExternal) return { opened: false };
    await this.deps.openExternal(safe);
    // The origin only: a link's path or query may carry a token.
    auditView(this.deps.audit, view, 'link-opened', { origin: new URL(safe).origin });
    return { opened: true };
  }

  /** The person's device-permission grants for a server's views (replaces the previous list). */
  async setPermissions(serverId: string, permissions: AppPermission[]): Promise<AppPermission[]> {
    this.knownServer(serverId);
    const granted = await this.deps.grants.setPermissions(serverId, permissions);
    this.deps.audit.append({
      kind: 'app',
      serverId,
      action: 'permissions-set',
      details: { permissions: granted },
    });
    return granted;
  }

  /** The per-server "Show interactive views" switch. */
  async setViewsEnabled(serverId: string, enabled: boolean): Promise<{ enabled: boolean }> {
    this.knownServer(serverId);
    await this.deps.grants.setViewsEnabled(serverId, enabled);
    this.deps.audit.append({ kind: 'app', serverId, action: enabled ? 'views-enabled' : 'views-disabled' });
    return { enabled };
  }

  /** The view was closed: its waits, buckets and context go. */
  forget(viewId: string): void {
    this.tools.forget(viewId);
    this.context.forget(viewId);
    this.other.forget(viewId);
  }

  dispose(): void {
    for (const v of this.deps.views.list()) this.forget(v.viewId);
  }

  private limited(viewId: string): OpenView {
    const view = this.deps.views.view(viewId);
    const waitMs = this.other.take(viewId);
    if (waitMs > 0)
      throw new HostFailure('rate_limited', `This view is asking too fast; try again in ${waitMs} ms.`);
    return view;
  }

  private knownServer(serverId: string): void {
    if (!this.deps.serverIds().includes(serverId))
      throw new HostFailure('unknown_server', `no server is named "${serverId}"`);
  }
}
