import type { AuditKind } from '../../../shared/domain/audit.js';
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
        // The paths are in args already; this names them as the reason to ask, capped so a call
        // listing thousands of files keeps a short line.
        ...(r.outsideRoots?.length
          ? {
              outsideRoots: r.outsideRoots.slice(0, OUTSIDE_ROOTS_KEPT),
              outsideRootsCount: r.outsideRoots.length,
            }
          : {}),
      };
    case 'sampling':
      return {
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

/** Record that a pending request was raised. */
export function auditRaised(audit: AuditLog | undefined, r: PendingRequest): void {
  audit?.append({
    kind: auditKindOf(r),
    serverId: r.serverId,
    action: 'requested',
    details: { id: r.id, ...requestSummary(r) },
  });
}

/** Record how a pending request ended: answered, timed out or cancelled. */
export function auditSettled(
  audit: AuditLog | undefined,
  r: PendingRequest,
  s: PendingResponse | 'timeout' | 'cancelled',
): void {
  if (!audit) return;
  const waitedMs = Date.now() - r.createdAt;
  if (typeof s === 'string')
    audit.append({ kind: auditKindOf(r), serverId: r.serverId, action: s, details: { id: r.id, waitedMs } });
  else
    audit.append({
      kind: auditKindOf(r),
      serverId: r.serverId,
      action: 'answered',
      details: { id: r.id, waitedMs, ...responseSummary(s) },
    });
}
