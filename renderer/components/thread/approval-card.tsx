import { useEffect, useRef, useState } from 'react';
import type { ApprovalChoice, ToolApprovalRequest } from '../../../shared/domain/chat.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { JsonView } from '../content/json-view.js';
import { ErrorBox } from '../error-box.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';
import { useNow } from '../../hooks/use-now.js';
import { formatCountdown, secondsUntil } from '../../lib/format.js';
import { ToolBadges } from '../tool-badges.js';
import { ToolChangeBadge } from '../tool-change-badge.js';
import { ToolChangeDiff } from '../tool-change-diff.js';
import { WarningsPanel } from '../tool-warnings/tool-warnings.js';
import { MarkedText } from '../tool-warnings/marked-text.js';
import { Icon } from '../icons.js';
import { HeldFlow } from '../flows/held-flow.js';
import { ApprovalActions, type CardAnswer } from './approval-actions.js';

/**
 * A tool call waiting on the person. Everything the tool will receive is shown in full
 * (never summarised) so what is approved is exactly what runs. The description shows once (in
 * the change's diff when the tool changed), with every passage its warnings matched marked.
 */
export function ApprovalCard({ request }: { request: ToolApprovalRequest }) {
  const host = useHost();
  const now = useNow(true);
  const [sending, setSending] = useState<CardAnswer | null>(null);
  const [error, setError] = useState<HostError | null>(null);
  const title = request.toolTitle ?? request.annotations?.title ?? request.tool;

  const held = request.flow;
  const denyButton = useRef<HTMLButtonElement>(null);
  // Deny is the default of a held card: the keyboard lands there, so Enter never runs the call.
  useEffect(() => {
    if (held) denyButton.current?.focus();
  }, [held]);
  const conversationId = request.conversationId;
  const respond = (choice: CardAnswer) => {
    setSending(choice);
    setError(null);
    // The release is its own audited step; the call itself is then allowed once.
    const release =
      choice === 'trust-content' && conversationId
        ? host.invoke('flows.trustContent', { conversationId })
        : Promise.resolve(null);
    const answer: ApprovalChoice = choice === 'trust-content' ? 'once' : choice;
    release
      .then(() => host.invoke('pending.respond', { id: request.id, choice: answer }))
      .then(
        (r) => {
          // Settled elsewhere first (timeout, stop): pending.changed removes the card anyway.
          if (!r.settled)
            setError({
              code: 'not_pending',
              message: 'This request was already settled (it timed out or the run stopped).',
            });
        },
        (e: unknown) => {
          setSending(null);
          setError(asHostError(e));
        },
      );
  };

  return (
    <section
      className={held ? 'approval-card approval-held' : 'approval-card'}
      data-testid="approval-card"
      data-held={held ? 'true' : undefined}
      data-request-id={request.id}
      aria-label={`Approve ${title}?`}
    >
      <div className="approval-head">
        <Icon name="warning" size={18} className="approval-icon" />
        <h3>
          Run <span className="approval-tool">{title}</span> on{' '}
          <span className="badge subtle">{request.serverId}</span>?
        </h3>
        <ToolBadges annotations={request.annotations} />
        <ToolChangeBadge
          trust={request.change ? { pin: 'changed' } : undefined}
          testId="approval-changed-badge"
        />
        <span className="muted small-print approval-expiry">
          expires in {formatCountdown(secondsUntil(request.expiresAt, now))}
        </span>
      </div>
      {title !== request.tool && <code className="muted">{request.tool}</code>}
      {request.fromView && (
        <p className="approval-from-view" data-testid="approval-from-view">
          Asked by the interactive view of {request.fromView.tool}, not by the model.
        </p>
      )}
      {held && <HeldFlow hold={held} tool={title} />}
      {request.description && !request.change && (
        <p className="approval-description" data-testid="approval-description">
          <MarkedText text={request.description} warnings={request.warnings ?? []} />
        </p>
      )}
      {request.change && (
        <div className="tool-change-review" data-testid="approval-change">
          <ToolChangeDiff change={request.change} warnings={request.warnings ?? []} />
          <p className="small-print">
            Allowing this call accepts the new version; Deny keeps it marked as changed.
          </p>
        </div>
      )}
      <WarningsPanel
        warnings={request.warnings ?? []}
        intro="This tool's text looks like it could steer the model. Read the marked passages before you allow it."
        testId="approval-warnings"
        shownAbove={['description']}
      />
      <p className="approval-reason" data-testid="approval-reason">
        {request.reason}
      </p>
      {request.outsideRoots && request.outsideRoots.length > 0 && (
        <OutsideRootsWarning paths={request.outsideRoots} />
      )}
      <div className="section-title">Arguments</div>
      <div className="approval-args">
        <JsonView value={request.args} testId="approval-args" />
      </div>
      <ApprovalActions request={request} sending={sending} onRespond={respond} denyRef={denyButton} />
      {error && <ErrorBox error={error} testId="approval-error" />}
    </section>
  );
}

/**
 * The paths that made this call ask although its server may be trusted. Listed one per line
 * and in full, since a path is easy to misread inside a JSON blob.
 */
function OutsideRootsWarning({ paths }: { paths: string[] }) {
  return (
    <div className="approval-outside" role="alert" data-testid="approval-outside-roots">
      <strong>Names paths outside your shared folders:</strong>
      <ul>
        {paths.map((p) => (
          <li key={p}>
            <code data-testid="approval-outside-path">{p}</code>
          </li>
        ))}
      </ul>
      <span className="small-print">
        A call like this always asks. Allowing it for this chat or always remembers the tool for paths inside
        your shared folders only.
      </span>
    </div>
  );
}
