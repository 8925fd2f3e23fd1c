import type { PendingRequest } from '../../../shared/domain/pending.js';
import { useNow } from '../../hooks/use-now.js';
import { formatCountdown, secondsUntil } from '../../lib/format.js';
import { ApprovalCard } from '../../components/thread/approval-card.js';
import { OpenConversation } from '../../components/open-conversation.js';
import { ServerRequestCard } from '../../components/requests/inline-requests.js';
import { RecentlySettled } from './recently-settled.js';

/** What a kind of request is called in the queue. */
function kindLabel(request: PendingRequest): string {
  switch (request.kind) {
    case 'tool-approval':
      return 'Tool call';
    case 'sampling':
      return request.stage === 'request' ? 'Sampling request' : 'Sampling reply';
    case 'elicitation':
      return request.mode === 'form' ? 'Form' : 'Link';
  }
}

/**
 * Everything waiting on the person, oldest first: tool approvals, sampling reviews and
 * elicitations from every server. The view stays mounted while hidden so half-edited
 * prompts and forms survive a visit to another view.
 */
export function RequestsView({ pending, active }: { pending: PendingRequest[]; active: boolean }) {
  const queue = [...pending].sort((a, b) => a.createdAt - b.createdAt);
  return (
    <section className="view requests-view" data-testid="requests-view">
      <header className="view-header">
        <h1>Requests</h1>
        <span className="muted">
          {queue.length === 0 ? 'Nothing is waiting for you.' : `${queue.length} waiting`}
        </span>
      </header>
      <ol className="request-queue" data-testid="request-queue">
        {queue.map((request) => (
          <li
            key={request.id}
            className={`request-item request-${request.kind}`}
            data-testid="request-item"
            data-kind={request.kind}
            data-request-id={request.id}
          >
            <div className="request-meta">
              <span className="badge" data-testid="request-kind">
                {kindLabel(request)}
              </span>
              <span>
                from{' '}
                <span className="badge subtle" data-testid="request-server">
                  {request.serverId}
                </span>
              </span>
              {/* A tool approval's card carries its own countdown: one per card. */}
              {request.kind !== 'tool-approval' && <Countdown expiresAt={request.expiresAt} />}
            </div>
            <RequestOrigin request={request} />
            <RequestBody request={request} active={active} />
          </li>
        ))}
      </ol>
      <RecentlySettled pending={pending} active={active} />
    </section>
  );
}

/** What the request came from: the tool call that caused it, and its conversation. */
function RequestOrigin({ request }: { request: PendingRequest }) {
  const conversationId =
    request.kind === 'tool-approval' ? request.conversationId : request.origin?.conversationId;
  const tool = request.kind === 'tool-approval' ? undefined : request.origin?.toolName;
  if (!conversationId && !tool) return null;
  return (
    <div className="request-origin muted small-print" data-testid="request-origin">
      {tool && (
        <span>
          Asked while <code>{tool}</code> ran{conversationId ? ' in a chat' : ' in the Tools view'}.
        </span>
      )}
      {conversationId && <OpenConversation conversationId={conversationId} />}
    </div>
  );
}

function RequestBody({ request, active }: { request: PendingRequest; active: boolean }) {
  switch (request.kind) {
    case 'tool-approval':
      // The chat shows the same card; only one copy is on the page at a time so a
      // `approval-card` always means the one the person is looking at.
      return active ? <ApprovalCard request={request} /> : null;
    case 'sampling':
    case 'elicitation':
      return <ServerRequestCard request={request} />;
  }
}

/** Seconds left before the host gives up on a request (it then cancels it). */
function Countdown({ expiresAt }: { expiresAt: number }) {
  const now = useNow(true);
  const left = secondsUntil(expiresAt, now);
  const text = formatCountdown(left);
  return (
    <span
      className={left <= 30 ? 'request-expiry soon' : 'request-expiry muted'}
      data-testid="request-expiry"
      title={new Date(expiresAt).toLocaleString()}
    >
      expires in {text}
    </span>
  );
}
