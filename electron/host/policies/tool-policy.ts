import type { ApprovalChoice } from '../../../shared/domain/chat.js';
import type { ServerConfig } from '../../../shared/domain/server-config.js';
import type { Tool } from '../../../shared/domain/mcp-types.js';
import { flowLinkSource, type FlowHold } from '../../../shared/domain/flows.js';
import type { ToolChange } from '../../../shared/domain/tool-trust.js';
import { fingerprintDefinition, fingerprintTool } from '../tool-trust/fingerprint.js';
import { launchKey } from '../config/launch-key.js';
import type { TrustRecords } from './trust-records.js';

/** The outcome of the policy for one tool call. */
export type PolicyDecision =
  | { allow: true; how: 'trusted' | 'allow-listed' | 'chat' }
  | { allow: false; reason: string; outsideRoots?: string[]; change?: ToolChange; flow?: FlowHold };

/** What the policy asks of the flow guard (policies/flow-guard.ts): must this call wait for review? */
export interface FlowCheck {
  hold(
    serverId: string,
    tool: Tool,
    conversationId: string | undefined,
    args: Record<string, unknown>,
  ): FlowHold | undefined;
}

/** What the policy asks of the tool pins (tool-trust/tool-trust-service.ts). */
export interface ChangedTools {
  /** The tool's change since it was pinned (approved or first seen), if any. */
  changeOf(serverId: string, tool: string): ToolChange | undefined;
  /** A person allowed a call after seeing `fingerprint`'s version: it becomes the pin. */
  accept(serverId: string, tool: string, via: 'approval', fingerprint: string): Promise<boolean>;
  /** A person allowed a call of an unchanged tool: its pin was approved, not only first seen. */
  noteApproved?(serverId: string, tool: string, fingerprint: string): Promise<void>;
}

/** Stops offering a tool to the model (the chat settings' `disabledTools`), and says so to the UI. */
export type ModelSwitchOff = (serverId: string, tool: string) => Promise<void>;

/** What the policy reads and writes of the standing trust records (the PolicyStore's `trust`). */
export type TrustLookup = Pick<TrustRecords, 'isTrustedServer' | 'isAlwaysAllowed' | 'allowAlways'>;

/** How many outside paths a reason names before it says "and N more". */
const REASON_PATHS = 5;

/**
 * Who may run a tool without asking. A server is trusted, or a tool "always allowed",
 * only for the launch config it was trusted with: trust is stored with a hash of the
 * command/args/env (or URL/headers), so a changed command asks again. "For this chat"
 * lives in memory with the conversation's id.
 *
 * A call whose arguments name paths outside the shared folders always asks, whatever the
 * trust or allow-list says: trust is given to a server for the folders a person shared, not
 * for their whole disk. Remembered choices are per tool, so "always" or "for this chat" on
 * such a card makes the tool's later in-roots calls silent, never its out-of-roots ones.
 *
 * Likewise a call to a sink (or a tool that may be one) after untrusted content came into its
 * conversation is held by the flow guard, whatever the trust or standing approvals say; a call
 * with nothing untrusted before it is decided exactly as without the guard.
 */
export class ToolPolicy {
  private readonly chatAllows = new Map<string, Set<string>>();

  constructor(
    private readonly trust: TrustLookup,
    private readonly configOf: (serverId: string) => ServerConfig | undefined,
    private readonly pins?: ChangedTools,
    private readonly flows?: FlowCheck,
    private readonly modelSwitchOff?: ModelSwitchOff,
  ) {}

  /** `outsideRoots`: the argument strings naming paths outside the shared folders (see roots/argument-paths.ts). */
  decide(
    serverId: string,
    tool: Tool,
    conversationId?: string,
    outsideRoots: readonly string[] = [],
    args: Record<string, unknown> = {},
  ): PolicyDecision {
    const config = this.configOf(serverId);
    if (!config) return { allow: false, reason: `server "${serverId}" is not configured` };
    // A changed tool is not the tool anyone approved: every standing approval waits for a review.
    const change = this.pins?.changeOf(serverId, tool.name);
    const flow = this.flows?.hold(serverId, tool, conversationId, args);
    const held = flow ? { flow } : {};
    if (outsideRoots.length > 0)
      return {
        allow: false,
        reason: outsideRootsReason(outsideRoots),
        outsideRoots: [...outsideRoots],
        ...(change ? { change } : {}),
        ...held,
      };
    if (change) return { allow: false, reason: changedReason(change), change, ...held };
    if (flow) return { allow: false, reason: heldReason(tool.name, flow), flow };
    const key = launchKey(config);
    if (config.trust === 'trusted' || this.trust.isTrustedServer(serverId, key))
      return { allow: true, how: 'trusted' };
    if (this.trust.isAlwaysAllowed(serverId, key, tool.name)) return { allow: true, how: 'allow-listed' };
    if (conversationId && this.chatAllows.get(conversationId)?.has(chatKey(serverId, tool.name)))
      return { allow: true, how: 'chat' };
    const hints: string[] = [];
    if (tool.annotations?.destructiveHint) hints.push('it may change or delete data');
    if (tool.annotations?.openWorldHint) hints.push('it reaches outside your machine');
    return {
      allow: false,
      reason: `"${serverId}" is not a trusted server${hints.length ? ` and ${hints.join(' and ')}` : ''}.`,
    };
  }

  /** Remember what a person chose, at the scope they chose. */
  async remember(
    choice: ApprovalChoice,
    serverId: string,
    tool: string,
    conversationId?: string,
  ): Promise<void> {
    if (choice === 'chat' && conversationId) {
      let set = this.chatAllows.get(conversationId);
      if (!set) this.chatAllows.set(conversationId, (set = new Set()));
      set.add(chatKey(serverId, tool));
    } else if (choice === 'always') {
      const config = this.configOf(serverId);
      if (config) await this.trust.allowAlways(serverId, launchKey(config), tool, conversationId);
    }
  }

  /** A person allowed a call on a card that showed a change: what they saw becomes the tool's pin. */
  async acceptSeen(change: ToolChange): Promise<void> {
    await this.pins?.accept(change.serverId, change.tool, 'approval', fingerprintDefinition(change.current));
  }

  /** A person allowed a call of a tool that had not changed: the version they saw counts as approved. */
  async noteApproved(serverId: string, tool: Tool): Promise<void> {
    await this.pins?.noteApproved?.(serverId, tool.name, fingerprintTool(tool));
  }

  /** "Switch off for the model" on a card: the tool is no longer offered to the model in chat. */
  async switchOff(serverId: string, tool: string): Promise<void> {
    await this.modelSwitchOff?.(serverId, tool);
  }

  /** Drop every "for this chat" choice about a server (it was removed, or its permissions revoked). */
  forgetServer(serverId: string): void {
    for (const set of this.chatAllows.values())
      for (const key of set) if (key.startsWith(`${serverId}/`)) set.delete(key);
  }

  /** Drop the "for this chat" choices of a conversation (it was deleted). */
  forgetConversation(conversationId: string): void {
    this.chatAllows.delete(conversationId);
  }
}

/** One server's tool, as the "for this chat" sets remember it. */
function chatKey(serverId: string, tool: string): string {
  return `${serverId}/${tool}`;
}

function changedReason(change: ToolChange): string {
  const what = change.readded
    ? 'was removed by its server and offered again'
    : 'has changed (description, input schema or other details)';
  const since = change.approvedAt ? 'since you approved it' : 'since it was first seen';
  return `"${change.tool}" ${what} ${since}. Its standing approvals are paused until you review the change: allowing this call accepts the new version.`;
}

function heldReason(tool: string, hold: FlowHold): string {
  const what = hold.flow.unknown
    ? 'may act on your machine or the world'
    : 'can act on your machine or the world';
  const from = [...new Set(hold.chain.map(flowLinkSource))].slice(0, 3).join('; ');
  return `"${tool}" ${what}, and this conversation has taken in content others control${from ? `: ${from}` : ''}. Such a call always waits for you, even for a trusted server or an always-allowed tool: check that it is what you asked for.`;
}

function outsideRootsReason(paths: readonly string[]): string {
  const named = paths.slice(0, REASON_PATHS).join(', ');
  const more = paths.length > REASON_PATHS ? ` and ${paths.length - REASON_PATHS} more` : '';
  return `The arguments name paths outside your shared folders: ${named}${more}. Such a call always asks, even for a trusted server or an always-allowed tool.`;
}
