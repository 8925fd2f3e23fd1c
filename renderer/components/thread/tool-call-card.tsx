import type { ToolCallRecord } from '../../../shared/domain/chat.js';
import { ContentBlocks } from '../content/content-blocks.js';
import { JsonView } from '../content/json-view.js';
import { ResultActions } from '../content/result-actions.js';
import { ErrorBox } from '../error-box.js';
import { InlineRequests, useRequestsOf } from '../requests/inline-requests.js';
import { Icon } from '../icons.js';
import { ToolAppView } from '../mcp-app/tool-app-view.js';
import { TaskLine } from '../task-line.js';
import { ToolChangeBadge } from '../tool-change-badge.js';
import { useToolTrust } from '../../hooks/use-catalog.js';
import { WarningsBadge, WarningsPanel } from '../tool-warnings/tool-warnings.js';

const STATUS_LABEL: Record<ToolCallRecord['status'], { label: string; className: string }> = {
  'awaiting-approval': { label: 'awaiting approval', className: 'status-waiting' },
  running: { label: 'running', className: 'status-running' },
  done: { label: 'done', className: 'ok' },
  error: { label: 'error', className: 'danger' },
  denied: { label: 'denied', className: 'danger' },
  cancelled: { label: 'cancelled', className: 'subtle' },
};

const APPROVAL_LABEL: Record<NonNullable<ToolCallRecord['approval']>, string> = {
  trusted: 'trusted server',
  'allow-listed': 'allow-listed',
  once: 'allowed once',
  chat: 'allowed for this chat',
  view: "allowed for the view's calls",
  always: 'always allowed',
};

/** A running call whose server asks the person something is waiting on them, not busy. */
const WAITING_FOR_YOU = { label: 'waiting for you', className: 'status-waiting' };

/**
 * One tool call inside an assistant message: what was asked, its state, what its server asks
 * the person meanwhile (sampling review, form, link — answered right here), and what came back.
 */
export function ToolCallCard({ call }: { call: ToolCallRecord }) {
  const asks = useRequestsOf(call.status === 'running' ? call.id : null);
  const trust = useToolTrust(call.serverId, call.tool);
  const status = asks.length > 0 ? WAITING_FOR_YOU : STATUS_LABEL[call.status];
  // A call that never ran (denied, or cancelled while it waited for approval) has no duration.
  const elapsed = call.endedAt !== undefined && ran(call) ? call.endedAt - call.startedAt : null;
  return (
    <div
      className={`tool-card tool-card-${call.status}`}
      data-testid="tool-card"
      data-status={call.status}
      data-call-id={call.id}
      data-waiting={asks.length > 0 ? 'true' : undefined}
    >
      <div className="tool-card-head">
        <Icon name="tools" className="tool-card-icon" />
        <span className="badge subtle">{call.serverId}</span>
        <strong className="tool-card-name">{call.tool}</strong>
        <ToolChangeBadge trust={trust} testId="tool-card-changed" />
        <span className={`badge ${status.className}`} data-testid="tool-card-status">
          {status.label}
        </span>
        <WarningsBadge warnings={call.warnings ?? []} />
        {call.approval && <span className="muted small-print">{APPROVAL_LABEL[call.approval]}</span>}
        {elapsed !== null && (
          <span className="muted small-print tool-card-time" data-testid="tool-card-time">
            {Math.round(elapsed)} ms
          </span>
        )}
        {call.approvalWaitMs !== undefined && (
          <span className="muted small-print" data-testid="tool-card-wait">
            waited {Math.round(call.approvalWaitMs / 1000)} s for approval
          </span>
        )}
      </div>
      <details className="tool-card-args">
        <summary>Arguments</summary>
        <JsonView value={call.args} testId="tool-card-args" />
      </details>
      {call.status === 'running' && call.progress && <CallProgress progress={call.progress} />}
      <TaskLine callId={call.id} />
      <InlineRequests requests={asks} />
      <WarningsPanel
        warnings={call.warnings ?? []}
        intro="The result contains text that looks written to steer the model. The model got it as tool output, as data; it is not an instruction from you."
        testId="tool-card-warnings"
      />
      <CallOutcome call={call} />
      {viewShown(call) && (
        <ToolAppView
          serverId={call.serverId}
          tool={call.tool}
          args={call.args}
          toolCallId={call.id}
          {...(call.result ? { result: call.result } : {})}
        />
      )}
    </div>
  );
}

/**
 * A call's view shows while it runs and once it has a result. A call that was denied, cancelled
 * (Stop during its approval included) or failed without a result mounts none: there is nothing
 * for it to show, and a view that mounted anyway would start asking for approvals of its own.
 */
function viewShown(call: ToolCallRecord): boolean {
  return call.status === 'running' || call.result !== undefined;
}

/** Whether the call ran at all: it was allowed (by trust, a list or a person), or is the host's own. */
function ran(call: ToolCallRecord): boolean {
  return call.approval !== undefined || call.host !== undefined;
}

function CallProgress({ progress }: { progress: NonNullable<ToolCallRecord['progress']> }) {
  return (
    <div className="progress" data-testid="tool-card-progress">
      <progress value={progress.progress} max={progress.total ?? undefined} />
      <span className="muted small-print">
        {progress.total !== undefined
          ? `${progress.progress} / ${progress.total}`
          : String(progress.progress)}
        {progress.message ? ` — ${progress.message}` : ''}
      </span>
    </div>
  );
}

function CallOutcome({ call }: { call: ToolCallRecord }) {
  switch (call.status) {
    case 'awaiting-approval':
    case 'running':
      return null;
    case 'denied':
      return <p className="muted small-print tool-card-note">Not run: the call was denied.</p>;
    case 'cancelled':
      return (
        <p className="muted small-print tool-card-note" data-testid="tool-card-cancelled">
          {ran(call) ? 'Cancelled before it finished.' : 'Cancelled before it was approved: it did not run.'}
        </p>
      );
    case 'done':
    case 'error':
      return (
        <div
          className={`tool-card-result${call.result?.isError || call.error ? ' is-error' : ''}`}
          data-testid="tool-card-result"
        >
          {call.error && <ErrorBox error={call.error} testId="tool-card-error" />}
          {call.result && (
            <ResultActions result={call.result}>
              {call.result.isError && (
                <div className="error-text small-print">The tool reported an error:</div>
              )}
              <ContentBlocks blocks={call.result.content ?? []} serverId={call.serverId} />
              {call.result.structuredContent !== undefined && (
                <details className="structured">
                  <summary className="section-title">Structured content</summary>
                  <JsonView value={call.result.structuredContent} testId="structured-content" />
                </details>
              )}
            </ResultActions>
          )}
        </div>
      );
  }
}
