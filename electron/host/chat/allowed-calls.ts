import type { Conversation, ToolCallRecord } from '../../../shared/domain/chat.js';

/** A conversation's tool call that ran because it was allowed (by trust, a standing choice or a person). */
export interface AllowedCall {
  conversationId: string;
  serverId: string;
  tool: string;
  approval: NonNullable<ToolCallRecord['approval']>;
}

/** How many recent allowed calls stay in memory (older ones are found in their conversation). */
const RECENT_CAP = 1000;

/**
 * The chat's tool calls that were allowed to run, by id: an MCP App view showing one's result
 * may call that tool again without asking (the approval that ran it covers them). Recent calls
 * are kept as they happen, since a run saves its message only once its calls are over; older
 * ones are looked up in their stored conversation.
 */
export class AllowedCalls {
  private readonly recent = new Map<string, AllowedCall>();

  constructor(private readonly load: (conversationId: string) => Promise<Conversation>) {}

  /** A call of `conversationId` changed: remember it once it was allowed. */
  note(conversationId: string, call: ToolCallRecord): void {
    if (!call.approval || this.recent.has(call.id)) return;
    this.recent.set(call.id, {
      conversationId,
      serverId: call.serverId,
      tool: call.tool,
      approval: call.approval,
    });
    if (this.recent.size > RECENT_CAP) this.recent.delete(this.recent.keys().next().value as string);
  }

  /** The allowed call `callId` of `conversationId`, or undefined (unknown, denied, cancelled before it ran). */
  async find(conversationId: string, callId: string): Promise<AllowedCall | undefined> {
    const hit = this.recent.get(callId);
    if (hit) return hit.conversationId === conversationId ? hit : undefined;
    const conversation = await this.load(conversationId).catch(() => undefined);
    for (const message of conversation?.messages ?? [])
      for (const part of message.parts)
        if (part.type === 'tool_call' && part.call.id === callId && part.call.approval)
          return {
            conversationId,
            serverId: part.call.serverId,
            tool: part.call.tool,
            approval: part.call.approval,
          };
    return undefined;
  }
}
