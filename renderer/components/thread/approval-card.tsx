import { useState } from 'react';
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
import { Icon } from '../icons.js';

const CHOICES: { choice: ApprovalChoice; label: string; testId: string; className: string }[] = [
  { choice: 'once', label: 'Allow once', testId: 'approve-once', className: 'primary' },
  { choice: 'chat', label: 'Allow for this chat', testId: 'approve-chat', className: '' },
  { choice: 'always', label: 'Always allow this tool', testId: 'approve-always', className: '' },
  { choice: 'deny', label: 'Deny', testId: 'deny', className: 'danger-text' },
];

/**
 * A tool call waiting on the person. Everything the tool will receive is shown in full
 * (never summarised) so what is approved is exactly what runs.
 */
export function ApprovalCard({ request }: { request: ToolApprovalRequest }) {
  const host = useHost();
  const now = useNow(true);
  const [sending, setSending] = useState<ApprovalChoice | null>(null);
  const [error, setError] = useState<HostError | null>(null);
  const title = request.toolTitle ?? request.annotations?.title ?? request.tool;

  const respond = (choice: ApprovalChoice) => {
    setSending(choice);
    setError(null);
    host.invoke('pending.respond', { id: request.id, choice }).then(
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
      className="approval-card"
      data-testid="approval-card"
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
      {request.description && !request.change && (
        <p className="approval-description">{request.description}</p>
      )}
      <WarningsPanel
        warnings={request.warnings ?? []}
        intro="This tool's description looks like it could steer the model. Read the passages before you allow it."
        testId="approval-warnings"
      />
      <p className="approval-reason" data-testid="approval-reason">
        {request.reason}
      </p>
      {request.change && (
        <div className="tool-change-review" data-testid="approval-change">
          <ToolChangeDiff change={request.change} />
          <p className="small-print">
            Allowing this call accepts the new version; Deny keeps it marked as changed.
          </p>
        </div>
      )}
      {request.outsideRoots && request.outsideRoots.length > 0 && (
        <OutsideRootsWarning paths={request.outsideRoots} />
      )}
      <div className="section-title">Arguments</div>
      <div className="approval-args">
        <JsonView value={request.args} testId="approval-args" />
      </div>
      <div className="form-actions approval-actions">
        {CHOICES.map((c) => (
          <button
            key={c.choice}
            type="button"
            className={c.className}
            disabled={sending !== null}
            onClick={() => respond(c.choice)}
            data-testid={c.testId}
          >
            {sending === c.choice ? 'Sending…' : c.label}
          </button>
        ))}
      </div>
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
