import type { ToolCallRecord } from '../../../shared/domain/chat.js';
import { modelMayCall } from '../../../shared/domain/mcp-apps.js';
import type { Tool } from '../../../shared/domain/mcp-types.js';
import type { ToolWarning } from '../../../shared/domain/tool-trust.js';
import type { PendingBroker } from '../pending/pending-broker.js';
import type { ToolPolicy } from './tool-policy.js';

/** One tool call about to run, as the policy and the approval card see it. */
export interface ApprovalQuestion {
  policy: ToolPolicy;
  broker: PendingBroker;
  serverId: string;
  tool: Tool;
  args: Record<string, unknown>;
  /** The call record the card decides (chat) or the caller's own id. */
  callId?: string;
  /** The conversation the card shows in; "for this chat" choices are kept under it. */
  conversationId?: string;
  /** Argument strings naming paths outside the shared folders (see roots/argument-paths.ts). */
  outsideRoots: readonly string[];
  /** An app view asked for the call: the card says so, and shows with that view. */
  fromView?: { tool: string; viewId: string; toolCallId?: string };
  /**
   * Whether the view may make this call without asking (AppToolCalls knows why), asked just
   * before a card would be raised. It stands in only for a server's missing trust: a changed
   * tool or a path outside the shared folders still asks.
   */
  viewAllowed?: () => boolean;
  /** The tool's poisoning and shadowing warnings (from the catalog), shown on the card. */
  warnings?: readonly ToolWarning[];
  signal?: AbortSignal;
  /** Called just before a person is asked (the chat marks its call as waiting). */
  onAsk?: () => void;
}

/** How the question ended: allowed (and how), or not. */
export type ApprovalOutcome =
  | { allowed: true; how: NonNullable<ToolCallRecord['approval']>; asked: boolean }
  | { allowed: false; settlement: 'deny' | 'timeout' | 'cancelled'; reason: string };

/**
 * The one approval flow of every tool call, whoever asks for it (the model in a chat run, or
 * an app view): the policy decides; if it does not allow the call, a person is asked through
 * the pending broker, and a standing choice ("for this chat", "always") is remembered.
 */
export async function approveToolCall(q: ApprovalQuestion): Promise<ApprovalOutcome> {
  const decision = q.policy.decide(q.serverId, q.tool, q.conversationId, q.outsideRoots, q.args);
  if (decision.allow) return { allowed: true, how: decision.how, asked: false };
  if (q.viewAllowed?.() && !decision.change && !decision.outsideRoots?.length)
    return { allowed: true, how: 'view', asked: false };
  q.onAsk?.();
  const settlement = await q.broker.ask(
    {
      kind: 'tool-approval',
      ...(q.callId ? { callId: q.callId } : {}),
      ...(q.conversationId ? { conversationId: q.conversationId } : {}),
      serverId: q.serverId,
      tool: q.tool.name,
      ...(q.tool.title ? { toolTitle: q.tool.title } : {}),
      ...(q.tool.description ? { description: q.tool.description } : {}),
      ...(q.tool.annotations ? { annotations: q.tool.annotations } : {}),
      inputSchema: q.tool.inputSchema,
      args: q.args,
      reason: decision.reason,
      ...(decision.outsideRoots?.length ? { outsideRoots: decision.outsideRoots } : {}),
      ...(q.fromView ? { fromView: q.fromView } : {}),
      ...(modelMayCall(q.tool) ? {} : { appOnly: true }),
      ...(decision.change ? { change: decision.change } : {}),
      ...(q.warnings?.length ? { warnings: [...q.warnings] } : {}),
      ...(decision.flow ? { flow: decision.flow } : {}),
    },
    q.signal ? { signal: q.signal } : {},
  );
  if (settlement === 'deny' || settlement === 'timeout' || settlement === 'cancelled')
    return { allowed: false, settlement, reason: decision.reason };
  if (settlement === 'switch-off') {
    await q.policy.switchOff(q.serverId, q.tool.name);
    return { allowed: false, settlement: 'deny', reason: decision.reason };
  }
  // Allowing a call whose card showed a change accepts that change (the version on the card);
  // allowing any other marks the version the person saw as approved (not just first seen).
  if (decision.change) await q.policy.acceptSeen(decision.change);
  else await q.policy.noteApproved(q.serverId, q.tool);
  await q.policy.remember(settlement, q.serverId, q.tool.name, q.conversationId);
  return { allowed: true, how: settlement, asked: true };
}
