import { MessageSquareMore } from 'lucide-react';
import type { ElicitationRequestView, SamplingRequestView } from '../../../shared/domain/pending.js';
import { usePending } from '../../hooks/use-pending.js';
import { useViewActive } from '../view-active.js';
import { ElicitationCard } from './elicitation-card.js';
import { SamplingCard } from './sampling-card.js';

/** A server's own request: what can be caused by a tool call. */
export type ServerRequest = SamplingRequestView | ElicitationRequestView;

/** The sampling reviews and forms a tool call's server is waiting on, oldest first. */
export function useRequestsOf(callId: string | null): ServerRequest[] {
  const pending = usePending();
  if (!callId) return [];
  return pending
    .filter((r): r is ServerRequest => r.kind !== 'tool-approval' && r.origin?.callId === callId)
    .sort((a, b) => a.createdAt - b.createdAt);
}

/** One server request's card: the sampling review or the form/link, the same as in Requests. */
export function ServerRequestCard({ request }: { request: ServerRequest }) {
  switch (request.kind) {
    case 'sampling':
      // Keyed by stage: the reply review starts fresh, not with the request's edits.
      return <SamplingCard key={request.stage} request={request} />;
    case 'elicitation':
      return <ElicitationCard request={request} />;
  }
}

/**
 * Where a tool call is shown (a chat's tool card, the Tools view's result area), what its
 * server asks meanwhile: answering here answers it everywhere (the Requests view lists it
 * too). Shown only while this view is on screen.
 */
export function InlineRequests({ requests }: { requests: ServerRequest[] }) {
  const active = useViewActive();
  if (!active || requests.length === 0) return null;
  return (
    <div className="inline-requests" data-testid="inline-requests">
      <p className="inline-requests-note">
        <MessageSquareMore aria-hidden="true" size={16} />
        {requests.length === 1
          ? `${requests[0].serverId} is waiting for you before this call can finish:`
          : `${requests[0].serverId} is waiting for ${requests.length} answers before this call can finish:`}
      </p>
      {requests.map((r) => (
        <div key={r.id} className="inline-request" data-testid="inline-request" data-request-id={r.id}>
          <ServerRequestCard request={r} />
        </div>
      ))}
    </div>
  );
}
