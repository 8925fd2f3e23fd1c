import { createHash, randomUUID } from 'node:crypto';
import type { CatalogTool } from '../../../shared/domain/catalog.js';
import type { ChatMessage } from '../../../shared/domain/chat.js';
import {
  heldWhenTainted,
  type FlowHold,
  type FlowLabel,
  type ToolFlow,
} from '../../../shared/domain/flows.js';
import type { CallToolResult, Tool } from '../../../shared/domain/mcp-types.js';
import type { RequestOrigin } from '../../../shared/domain/pending.js';
import type { AuditLog } from '../audit/audit-log.js';
import { inspectResult } from '../tool-trust/inspect-result.js';
import { ConversationTaint, type TaintNote } from './conversation-taint.js';
import { defaultFlow, overriddenFlow } from './flow-labels.js';
import type { FlowOverridesStore } from './flow-overrides-store.js';

/** What the guard needs: the overrides (the PolicyStore's `flows`), the audit log and a clock. */
export interface FlowGuardDeps {
  overrides: FlowOverridesStore;
  audit: AuditLog;
  now?: () => number;
}

/** The tool of a call as the guard judges it: the catalog's definition when known. */
type ToolLike = Pick<Tool, 'name' | 'description' | 'inputSchema' | 'annotations'>;

/** Warning kinds that make any result untrusted, whatever its tool's labels say. */
const INJECTION_KINDS = new Set(['model-instructions', 'hidden-unicode']);

/**
 * The cross-server flow guard: each tool's flow labels (defaults, or a person's override) and
 * the taint of each conversation. Once untrusted content entered a conversation, a call to a
 * sink (or a tool that may be one) is held for review, whatever the trust or standing approvals
 * say; `hold` is what ToolPolicy.decide asks on every call, whoever makes it. Overrides and
 * releases are audited.
 */
export class FlowGuard {
  private readonly taint: ConversationTaint;
  private readonly now: () => number;

  constructor(private readonly deps: FlowGuardDeps) {
    this.now = deps.now ?? Date.now;
    this.taint = new ConversationTaint(this.now);
  }

  /** A tool's labels: its override (its own, else its server's), else the defaults. */
  flowOf(serverId: string, tool: ToolLike): ToolFlow {
    const override = this.deps.overrides.lookup(serverId, tool.name);
    return override ? overriddenFlow(override) : defaultFlow(tool);
  }

  /** The catalog's annotator: fills in each tool's `flow`. */
  readonly annotate = (tools: readonly CatalogTool[]): void => {
    for (const entry of tools) entry.flow = this.flowOf(entry.serverId, entry.tool);
  };

  /** Why a call must wait for review, or undefined when it need not (no taint, or not a sink). */
  hold(
    serverId: string,
    tool: ToolLike,
    conversationId: string | undefined,
    args: Record<string, unknown>,
  ): FlowHold | undefined {
    if (!conversationId || !this.taint.isTainted(conversationId)) return undefined;
    const flow = this.flowOf(serverId, tool);
    if (!heldWhenTainted(flow)) return undefined;
    // Browsing page after page: a fetch fed only by its own results, in a chat that read nothing sensitive.
    if (flow.fetchOnly && this.taint.onlyFrom(conversationId, serverId, tool.name)) return undefined;
    return { ...this.taint.chainFor(conversationId, args), flow };
  }

  /** Whether a conversation has taken in untrusted content since its last release. */
  isTainted(conversationId: string): boolean {
    return this.taint.isTainted(conversationId);
  }

  /** A tool's result reached the conversation: untrusted if its tool is a source or it carries injection markers. */
  noteResult(
    conversationId: string,
    serverId: string,
    tool: ToolLike | undefined,
    toolName: string,
    callId: string,
    result: CallToolResult,
    at = this.now(),
  ): boolean {
    // A stored history is seeded at every run: each result is read once, not once per run.
    const key = `tool:${callId}`;
    if (this.taint.knows(conversationId, key)) return false;
    const labels = tool ? this.flowOf(serverId, tool).labels : undefined;
    // A tool no longer known counts as both: its result may be anything.
    if (!labels || labels.includes('sensitive')) this.taint.noteSensitive(conversationId);
    const source = labels ? labels.includes('source') : true;
    if (!source && !inspectResult(result).some((w) => INJECTION_KINDS.has(w.kind))) {
      this.taint.seen(conversationId, key);
      return false;
    }
    return this.taint.note(conversationId, {
      key,
      kind: 'tool-result',
      serverId,
      name: toolName,
      at,
      text: resultText(result),
    });
  }

  /**
   * What a conversation's stored history brought in: tool results of sources (or of tools no
   * longer known), attached resources and app views' messages. Run at the start of each run,
   * so a restart does not clear a taint.
   */
  seed(conversationId: string, messages: readonly ChatMessage[], tools: readonly CatalogTool[]): void {
    const known = new Map(tools.map((t) => [`${t.serverId}\u0000${t.tool.name}`, t.tool]));
    for (const m of messages) {
      if (m.role === 'user' && m.origin?.kind === 'app')
        this.taint.note(conversationId, {
          key: `msg:${m.id}`,
          kind: 'app-message',
          serverId: m.origin.serverId,
          name: m.origin.tool,
          at: m.createdAt,
          text: m.parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n'),
        });
      m.parts.forEach((p, i) => {
        if (p.type === 'attachment')
          this.taint.note(conversationId, {
            key: `att:${m.id}:${i}`,
            kind: 'resource',
            serverId: p.attachment.serverId,
            name: p.attachment.uri,
            at: m.createdAt,
            text: p.attachment.text ?? '',
          });
        else if (p.type === 'tool_call' && p.call.result) {
          const tool = known.get(`${p.call.serverId}\u0000${p.call.tool}`);
          this.noteResult(
            conversationId,
            p.call.serverId,
            tool,
            p.call.tool,
            p.call.id,
            p.call.result,
            p.call.endedAt ?? m.createdAt,
          );
        }
      });
    }
  }

  /** A server asked for sampling while a call of a conversation was running: its messages are untrusted. */
  noteSampling(serverId: string, origin: RequestOrigin | undefined, messages: unknown): boolean {
    if (!origin?.conversationId) return false;
    return this.taint.note(origin.conversationId, {
      key: `sampling:${randomUUID()}`,
      kind: 'sampling',
      serverId,
      name: origin.toolName,
      at: this.now(),
      text: samplingText(messages),
    });
  }

  /** An app view updated the model context of its conversation. */
  noteViewContext(conversationId: string, serverId: string, viewTool: string, text: string): boolean {
    if (!text) return false;
    const digest = createHash('sha256').update(text).digest('hex').slice(0, 16);
    return this.taint.note(conversationId, {
      key: `ctx:${serverId}:${viewTool}:${digest}`,
      kind: 'app-context',
      serverId,
      name: viewTool,
      at: this.now(),
      text,
    });
  }

  /** "I trust this content": what the conversation read so far no longer holds its calls (audited). */
  release(conversationId: string, via: 'card' | 'cli'): number {
    const released = this.taint.release(conversationId);
    this.deps.audit.append({
      kind: 'approval',
      action: 'content-trusted',
      details: { conversationId, via, released: released.map(summary) },
    });
    return released.length;
  }

  /** Set or clear (null) the labels of a tool, or of every tool of a server (audited). */
  async setOverride(
    serverId: string,
    tool: string | undefined,
    labels: FlowLabel[] | null,
  ): Promise<boolean> {
    const changed = await this.deps.overrides.set(serverId, tool, labels);
    if (changed)
      this.deps.audit.append({
        kind: 'approval',
        serverId,
        action: labels === null ? 'flow-labels-reset' : 'flow-labels-set',
        details: { ...(tool !== undefined ? { tool } : { scope: 'server' }), ...(labels ? { labels } : {}) },
      });
    return changed;
  }

  /** The conversation was deleted: its taint goes with it. */
  forgetConversation(conversationId: string): void {
    this.taint.forget(conversationId);
  }
}

/** What the audit keeps of a released piece: where it came from, not its text. */
function summary(n: TaintNote): Record<string, unknown> {
  return { kind: n.kind, serverId: n.serverId, name: n.name, at: n.at };
}

/** The text a model reads of a result: its text blocks, embedded texts, and structured content. */
function resultText(result: CallToolResult): string {
  const parts: string[] = [];
  for (const b of result.content ?? []) {
    if (b.type === 'text') parts.push(b.text);
    else if (b.type === 'resource' && typeof b.resource.text === 'string') parts.push(b.resource.text);
    else if (b.type === 'resource_link') parts.push([b.name, b.description].filter(Boolean).join(': '));
  }
  if (result.structuredContent) parts.push(JSON.stringify(result.structuredContent));
  return parts.join('\n');
}

/** The text blocks of a sampling request's messages (unchecked input: anything else is skipped). */
function samplingText(messages: unknown): string {
  if (!Array.isArray(messages)) return '';
  const out: string[] = [];
  const block = (b: unknown) => {
    if (b && typeof b === 'object' && (b as { type?: unknown }).type === 'text') {
      const t = (b as { text?: unknown }).text;
      if (typeof t === 'string') out.push(t);
    }
  };
  for (const m of messages.slice(0, 200)) {
    const content = m && typeof m === 'object' ? (m as { content?: unknown }).content : undefined;
    if (Array.isArray(content)) content.slice(0, 100).forEach(block);
    else block(content);
  }
  return out.join('\n');
}
