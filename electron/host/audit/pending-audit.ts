import type { AuditKind } from '../../../shared/domain/audit.js';
import type { FlowHold } from '../../../shared/domain/flows.js';
import type { PendingRequest, PendingResponse } from '../../../shared/domain/pending.js';
import type { AuditLog } from './audit-log.js';

/** How many outside-the-roots paths an approval record names. */
const OUTSIDE_ROOTS_KEPT = 10;

/** Which audit kind a pending request belongs to. */
export function auditKindOf(r: PendingRequest): AuditKind {
  switch (r.kind) {
    case 'tool-approval':
      return 'approval';
    case 'sampling':
      return 'sampling';
    case 'elicitation':
      return 'elicitation';
  }
}

/** What is worth keeping about a request: enough to know what was asked, not the whole payload. */
function requestSummary(r: PendingRequest): Record<string, unknown> {
  switch (r.kind) {
    case 'tool-approval':
      return {
        tool: r.tool,
        args: r.args,
        reason: r.reason,
        ...(r.conversationId ? { conversationId: r.conversationId } : {}),
        ...(r.fromView ? { fromView: r.fromView.tool } : {}),
        // The paths are in args already; this names them as the reason to ask, capped so a call
        // listing thousands of files keeps a short line.
        ...(r.outsideRoots?.length
          ? {
              outsideRoots: r.outsideRoots.slice(0, OUTSIDE_ROOTS_KEPT),
              outsideRootsCount: r.outsideRoots.length,
            }
          : {}),
        ...(r.flow ? { flow: flowSummary(r.flow) } : {}),
      };
    case 'sampling':
      return {
        ...originOf(r),
        stage: r.stage,
        messageCount: r.messages.length,
        maxTokens: r.maxTokens,
        suggestedModel: r.suggestedModel,
        ...(r.modelPreferences?.hints
          ? { modelHints: r.modelPreferences.hints.map((h) => h.name).filter(Boolean) }
          : {}),
      };
    case 'elicitation':
      // The URL itself may carry a token in its query: the domain is what a person consented to.
      return {
        ...originOf(r),
        mode: r.mode,
        message: r.message,
        ...(r.domain ? { domain: r.domain } : {}),
        warnings: r.warnings.length,
      };
  }
}

/** What is worth keeping about an answer: the decision, never the values a person typed in. */
function responseSummary(s: PendingResponse): Record<string, unknown> {
  switch (s.kind) {
    case 'tool-approval':
      return { choice: s.choice };
    case 'sampling':
      return {
        action: s.action,
        ...(s.model ? { model: s.model } : {}),
        ...(s.remember ? { remember: s.remember } : {}),
        edited: s.messages !== undefined || s.systemPrompt !== undefined || s.replyText !== undefined,
      };
    case 'elicitation':
      // Field names only: the values are the person's data (and may be a password).
      return { action: s.action, ...(s.content ? { fields: Object.keys(s.content) } : {}) };
  }
}

/** How much of a held call's carried passage a record keeps. */
const PASSAGE_KEPT = 300;

/** A held call's chain as the audit keeps it: where each piece came from, when, and the passage it carried. */
function flowSummary(hold: FlowHold): Record<string, unknown> {
  return {
    held: true,
    total: hold.total,
    labels: hold.flow.labels,
    ...(hold.flow.unknown ? { unknown: true } : {}),
    chain: hold.chain.map((l) => ({
      kind: l.kind,
      serverId: l.serverId,
      name: l.name,
      at: l.at,
      passage: l.passage.length > PASSAGE_KEPT ? `${l.passage.slice(0, PASSAGE_KEPT)}…` : l.passage,
      carried: l.carried !== undefined,
      ...(l.warnings.length ? { warnings: l.warnings.map((w) => w.kind) } : {}),
    })),
  };
}

/** Record that a pending request was raised. */
export function auditRaised(audit: AuditLog | undefined, r: PendingRequest): void {
  audit?.append({
    kind: auditKindOf(r),
    serverId: r.serverId,
    action: 'requested',
    details: { id: r.id, ...requestSummary(r) },
  });
}

/**
 * Where a request came from, on both its records: the tool call that caused a server request
 * (and its conversation), or an approval's conversation, so Activity and Requests can link there.
 */
function originOf(r: PendingRequest): Record<string, unknown> {
  if (r.kind === 'tool-approval')
    return { callId: r.callId, ...(r.conversationId ? { conversationId: r.conversationId } : {}) };
  if (!r.origin) return {};
  return {
    callId: r.origin.callId,
    tool: r.origin.toolName,
    ...(r.origin.conversationId ? { conversationId: r.origin.conversationId } : {}),
  };
}

/** Record how a pending request ended: answered, timed out or cancelled (with the host's reason, when it gave one). */
export function auditSettled(
  audit: AuditLog | undefined,
  r: PendingRequest,
  s: PendingResponse | 'timeout' | 'cancelled',
  why?: string,
): void {
  if (!audit) return;
  const waitedMs = Date.now() - r.createdAt;
  const what =
    r.kind === 'sampling'
      ? { stage: r.stage }
      : r.kind === 'elicitation'
        ? { mode: r.mode }
        : r.flow
          ? { tool: r.tool, flow: flowSummary(r.flow) }
          : {};
  const base = { id: r.id, ...what, ...originOf(r), waitedMs };
  if (typeof s === 'string')
    audit.append({
      kind: auditKindOf(r),
      serverId: r.serverId,
      action: s,
      details: { ...base, ...(why ? { reason: why } : {}) },
    });
  else
    audit.append({
      kind: auditKindOf(r),
      serverId: r.serverId,
      action: 'answered',
      details: { ...base, ...responseSummary(s) },
    });
}
