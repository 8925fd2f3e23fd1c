import { randomUUID } from 'node:crypto';
import type { CatalogSnapshot } from '../../../shared/domain/catalog.js';
import { offersChoice } from '../../../shared/domain/approval-choices.js';
import { appMayCall } from '../../../shared/domain/mcp-apps.js';
import type { CallToolResult } from '../../../shared/domain/mcp-types.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { PendingBroker } from '../pending/pending-broker.js';
import { approveToolCall } from '../policies/tool-approval.js';
import type { ToolPolicy } from '../policies/tool-policy.js';
import { pathsOutsideRoots } from '../roots/argument-paths.js';
import type { RootLike } from '../roots/root-guard.js';
import { RateLimiter } from '../sampling/rate-limiter.js';
import type { ToolCallOptions } from '../servers/server-calls.js';
import { HostFailure } from '../util/errors.js';
import { auditView, type OpenView } from './app-views.js';

/** A view may make this many calls at once, refilled at half that per second (10/s, burst 20). */
export const APP_CALL_BURST = 20;
const APP_CALL_REFILL_MS = 2000;

/** What an app view's tool calls need of the host. */
export interface AppToolCallsDeps {
  catalog: () => CatalogSnapshot;
  callTool: (
    serverId: string,
    tool: string,
    args: Record<string, unknown>,
    opts: ToolCallOptions,
  ) => Promise<CallToolResult>;
  policy: ToolPolicy;
  broker: PendingBroker;
  audit: AuditLog;
  /** The shared folders: arguments naming paths outside them always ask. */
  roots: () => readonly RootLike[];
  /** Tests pass a tighter or looser bucket. */
  limiter?: RateLimiter;
  /**
   * The chat's tool call `callId` of `conversationId`, if it ran allowed: a view showing its
   * result may call that same tool again without asking (absent: every call asks).
   */
  allowedCall?: (
    conversationId: string,
    callId: string,
  ) => Promise<{ serverId: string; tool: string } | undefined>;
}

/**
 * A view's `tools/call`, held to the same rules as a model's and then some: only its own
 * server's tools, only tools whose visibility includes "app", at most a bucket of calls per
 * view, and the same policy, approval card (saying the view asked), roots check and audit as
 * a chat tool call. A refusal is a HostFailure the frame turns into a JSON-RPC error.
 */
export class AppToolCalls {
  private readonly limiter: RateLimiter;
  /** Views whose bucket ran dry, so a flood is audited once, not per call. */
  private readonly throttled = new Set<string>();
  /** Approvals a view is waiting on: closing the view cancels them. */
  private readonly waits = new Map<string, AbortController>();
  /** Views a person allowed to make their calls without asking ("Allow this view's calls"), while open. */
  private readonly allowedViews = new Set<string>();

  constructor(private readonly deps: AppToolCallsDeps) {
    this.limiter = deps.limiter ?? new RateLimiter(APP_CALL_BURST, APP_CALL_REFILL_MS);
  }

  /** Run `toolName` for `view`, or refuse with `rate_limited` / `app_call_refused`. */
  async call(
    view: OpenView,
    toolName: string,
    args: Record<string, unknown>,
    callId?: string,
  ): Promise<CallToolResult> {
    this.checkRate(view);
    const entry = this.deps
      .catalog()
      .tools.find((t) => t.serverId === view.serverId && t.tool.name === toolName);
    if (!entry)
      this.refuse(
        view,
        toolName,
        `"${view.serverId}" has no tool "${toolName}"; a view may call only the tools of its own server.`,
      );
    if (!appMayCall(entry.tool))
      this.refuse(
        view,
        toolName,
        `"${toolName}" is for the model only; its server does not let views call it.`,
      );
    const outside = await pathsOutsideRoots(args, this.deps.roots());
    const controller = this.waitsOf(view.viewId);
    const approval = await approveToolCall({
      policy: this.deps.policy,
      broker: this.deps.broker,
      serverId: view.serverId,
      tool: entry.tool,
      args,
      ...(view.conversationId ? { conversationId: view.conversationId } : {}),
      outsideRoots: outside,
      fromView: {
        tool: view.toolName,
        viewId: view.viewId,
        ...(view.toolCallId ? { toolCallId: view.toolCallId } : {}),
      },
      viewAllowed: (
        (covered) => () =>
          covered || this.allowedViews.has(view.viewId)
      )(await this.coveredByItsCall(view, toolName)),
      ...(entry.trust?.warnings.length ? { warnings: entry.trust.warnings } : {}),
      signal: controller.signal,
    });
    if (!approval.allowed) {
      const why =
        approval.settlement === 'deny'
          ? 'You declined this call.'
          : approval.settlement === 'timeout'
            ? 'Nobody answered the approval in time.'
            : 'The approval was cancelled.';
      this.refuse(view, toolName, why, { settlement: approval.settlement });
    }
    if (approval.how === 'view' && approval.asked) this.allowView(view.viewId);
    return this.deps.callTool(view.serverId, toolName, args, {
      callId: callId ?? `app-${randomUUID()}`,
      ...(view.conversationId ? { conversationId: view.conversationId } : {}),
      fromView: view.toolName,
    });
  }

  /** The view is gone: cancel what it waits on and drop its bucket. */
  forget(viewId: string): void {
    this.waits.get(viewId)?.abort();
    this.waits.delete(viewId);
    this.allowedViews.delete(viewId);
    this.limiter.forget(viewId);
    this.throttled.delete(viewId);
  }

  /** Whether `toolName` is the tool whose allowed chat call the view shows (that approval covers its view). */
  private async coveredByItsCall(view: OpenView, toolName: string): Promise<boolean> {
    if (toolName !== view.toolName || !view.conversationId || !view.toolCallId) return false;
    const call = await this.deps.allowedCall?.(view.conversationId, view.toolCallId);
    return call?.serverId === view.serverId && call.tool === view.toolName;
  }

  /**
   * A person chose "Allow this view's calls": its later calls run without asking while it is
   * open, and the calls it has waiting now are answered the same way (not a changed tool's, nor
   * one naming paths outside the shared folders: those cards stay).
   */
  private allowView(viewId: string): void {
    this.allowedViews.add(viewId);
    for (const r of this.deps.broker.list())
      if (
        r.kind === 'tool-approval' &&
        r.fromView?.viewId === viewId &&
        !r.change &&
        !r.outsideRoots?.length &&
        offersChoice(r, 'view')
      )
        this.deps.broker.respond(r.id, { kind: 'tool-approval', choice: 'view' });
  }

  private checkRate(view: OpenView): void {
    const waitMs = this.limiter.take(view.viewId);
    if (waitMs === 0) {
      this.throttled.delete(view.viewId);
      return;
    }
    if (!this.throttled.has(view.viewId)) {
      this.throttled.add(view.viewId);
      auditView(this.deps.audit, view, 'tool-call-rate-limited', {
        code: 'rate_limited',
        retryAfterMs: waitMs,
      });
    }
    throw new HostFailure('rate_limited', `This view is calling tools too fast; try again in ${waitMs} ms.`);
  }

  private waitsOf(viewId: string): AbortController {
    let c = this.waits.get(viewId);
    if (!c) this.waits.set(viewId, (c = new AbortController()));
    return c;
  }

  private refuse(view: OpenView, tool: string, reason: string, extra: Record<string, unknown> = {}): never {
    auditView(this.deps.audit, view, 'tool-call-refused', {
      calledTool: tool,
      code: 'app_call_refused',
      reason,
      ...extra,
    });
    throw new HostFailure('app_call_refused', reason);
  }
}
