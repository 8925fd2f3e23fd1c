import type { ApprovalChoice, ToolApprovalRequest } from './chat.js';

/**
 * Which answers a tool approval card offers, and which is its default: the one rule the card
 * draws its buttons from and the host checks every answer against (an answer the card did not
 * offer is refused). Kept in shared/ so the two can never disagree.
 */

/** Why a card must be answered carefully: its tool is flagged, or changed since it was pinned. */
export type Caution = 'warnings' | 'changed' | 'held';

/**
 * The reasons a card is cautious, none for an ordinary card. A cautious card offers no standing
 * "always" and defaults to Deny. Another kind of caution (a held flow, say) adds its reason here.
 */
export function cautionsOf(request: ToolApprovalRequest): Caution[] {
  const out: Caution[] = [];
  if (request.warnings?.length) out.push('warnings');
  if (request.change) out.push('changed');
  if (request.flow) out.push('held');
  return out;
}

/**
 * The answers `request`'s card offers, in the order shown; the first is the primary (default)
 * one. "For this chat" only inside a conversation; "this view's calls" only when a view asked;
 * "switch off for the model" on a cautious card, for a tool the model is offered.
 */
export function approvalChoices(request: ToolApprovalRequest): ApprovalChoice[] {
  const inChat = request.conversationId !== undefined;
  const fromView = request.fromView !== undefined;
  const switchable = !request.appOnly;
  const pick = (entries: [ApprovalChoice, boolean][]) => entries.filter(([, on]) => on).map(([c]) => c);
  // A call the flow guard held: the standing choices are about the tool, not the content that
  // led to it, so only this call is answered (the card adds "I trust this content", a release).
  if (request.flow) return ['deny', 'once'];
  if (cautionsOf(request).length > 0)
    return pick([
      ['deny', true],
      ['switch-off', switchable],
      ['once', true],
      ['view', fromView],
      ['chat', inChat],
    ]);
  return pick([
    ['once', true],
    ['view', fromView],
    ['chat', inChat],
    ['always', true],
    ['deny', true],
  ]);
}

/** Whether `choice` is one of the answers `request`'s card offers. */
export function offersChoice(request: ToolApprovalRequest, choice: ApprovalChoice): boolean {
  return approvalChoices(request).includes(choice);
}
