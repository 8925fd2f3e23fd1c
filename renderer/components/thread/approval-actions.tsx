import type { Ref } from 'react';
import { approvalChoices, cautionsOf } from '../../../shared/domain/approval-choices.js';
import type { ApprovalChoice, ToolApprovalRequest } from '../../../shared/domain/chat.js';

/** How each answer reads on a card (which answers a card offers: shared/domain/approval-choices.ts). */
const ANSWERS: Record<ApprovalChoice, { label: string; testId: string; title?: string }> = {
  once: { label: 'Allow once', testId: 'approve-once' },
  chat: { label: 'Allow for this chat', testId: 'approve-chat' },
  view: {
    label: "Allow this view's calls",
    testId: 'approve-view',
    title:
      'Calls this view makes run without asking while it stays open (a changed tool or a path outside your shared folders still asks)',
  },
  always: { label: 'Always allow this tool', testId: 'approve-always' },
  deny: { label: 'Deny', testId: 'deny' },
  'switch-off': {
    label: 'Deny and switch off for the model',
    testId: 'switch-off',
    title:
      'Deny this call, and stop offering the tool to the model in chat (the Tools view can turn it back on)',
  },
};

const REFUSALS: readonly ApprovalChoice[] = ['deny', 'switch-off'];

/** A card's answer: one of the host's choices, or a held card's release of its conversation. */
export type CardAnswer = ApprovalChoice | 'trust-content';

/**
 * A card's answers, in the order the shared rule gives them, the first as the primary button:
 * Allow once on an ordinary card, Deny on a cautious one (flagged or changed), which also says
 * why it is cautious.
 */
export function ApprovalActions({
  request,
  sending,
  onRespond,
  denyRef,
}: {
  request: ToolApprovalRequest;
  sending: CardAnswer | null;
  onRespond: (choice: CardAnswer) => void;
  /** The Deny button, for a held card to put the keyboard on. */
  denyRef?: Ref<HTMLButtonElement>;
}) {
  const cautions = cautionsOf(request);
  // A held card explains itself above (its chain); the flagged/changed note is for the others.
  const noted = cautions.filter((c) => c !== 'held');
  return (
    <>
      {noted.length > 0 && (
        <p className="small-print approval-caution" data-testid="approval-caution">
          {noted.includes('changed')
            ? 'This tool changed, so Deny is the default and it cannot be allowed always; allowing this call accepts the new version.'
            : 'This tool is flagged, so Deny is the default and it cannot be allowed always while the warnings stand.'}
        </p>
      )}
      <div className="form-actions approval-actions">
        {approvalChoices(request).map((choice, i) => {
          const a = ANSWERS[choice];
          const className = i === 0 ? 'primary' : REFUSALS.includes(choice) ? 'danger-text' : '';
          return (
            <button
              key={choice}
              type="button"
              className={className}
              disabled={sending !== null}
              onClick={() => onRespond(choice)}
              title={a.title}
              data-testid={a.testId}
              ref={choice === 'deny' ? denyRef : undefined}
            >
              {sending === choice ? 'Sending…' : a.label}
            </button>
          );
        })}
        {request.flow && request.conversationId && (
          <button
            type="button"
            disabled={sending !== null}
            onClick={() => onRespond('trust-content')}
            data-testid="approve-trust-content"
          >
            {sending === 'trust-content'
              ? 'Sending…'
              : 'I trust this content: allow, and stop holding this chat'}
          </button>
        )}
      </div>
    </>
  );
}
