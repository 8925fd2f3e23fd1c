import { MessageSquare } from 'lucide-react';
import { useState } from 'react';
import type { ToolApprovalRequest } from '../../../shared/domain/chat.js';
import type { HostError } from '../../../shared/ipc/host-error.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';
import { usePending } from '../../hooks/use-pending.js';
import { ApprovalCard } from '../thread/approval-card.js';

/** The approvals one open view waits on, oldest first. */
export function useViewApprovals(viewId: string | null): ToolApprovalRequest[] {
  const pending = usePending();
  if (!viewId) return [];
  return pending
    .filter((r): r is ToolApprovalRequest => r.kind === 'tool-approval' && r.fromView?.viewId === viewId)
    .sort((a, b) => a.createdAt - b.createdAt);
}

/**
 * The cards of what a view asked, shown with the view (under it in the Tools view, under its
 * tool card in chat), never in whichever conversation happens to be open. The Requests view
 * lists them too; answering either answers both.
 */
export function ViewRequests({ requests }: { requests: ToolApprovalRequest[] }) {
  if (requests.length === 0) return null;
  return (
    <div className="app-view-requests" data-testid="app-view-requests">
      {requests.map((r) => (
        <ApprovalCard key={r.id} request={r} />
      ))}
    </div>
  );
}

/** The longest view message "Send in a new chat" passes on (the host's cap on a view's message). */
const MAX_MESSAGE_CHARS = 20_000;
/** How much of a refused message the note quotes. */
const QUOTED_CHARS = 600;

/** A message the view tried to add to a conversation, and why it was not added. */
export interface RefusedMessage {
  text: string;
  error: HostError;
}

/**
 * What became of a view's "Send Message" that did not reach a chat: outside a conversation (the
 * Tools view) it can go to a new chat, as the person's own message, if they choose; any other
 * refusal (too fast, too long) is said as the host said it.
 */
export function MessageNote({
  message,
  outsideChat,
  onDismiss,
}: {
  message: RefusedMessage;
  outsideChat: boolean;
  onDismiss: () => void;
}) {
  const host = useHost();
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const sendInNewChat = () => {
    setSending(true);
    setProblem(null);
    host
      .invoke('chat.create', {})
      .then(async (c) => {
        await host.invoke('chat.send', { conversationId: c.id, text: message.text });
        await host.invoke('app.showConversation', { conversationId: c.id });
        onDismiss();
      })
      .catch((e: unknown) => {
        setSending(false);
        setProblem(asHostError(e).message);
      });
  };
  return (
    <div className="app-view-ask app-view-message" role="status" data-testid="app-view-message">
      <MessageSquare size={14} aria-hidden />
      <span>
        {outsideChat
          ? 'The view asked to send a message to the model, but a view opened here is not part of a chat, so it was not sent: '
          : `The view's message was not sent (${message.error.message}): `}
        <q className="app-view-message-text">
          {message.text.length > QUOTED_CHARS ? `${message.text.slice(0, QUOTED_CHARS)}…` : message.text}
        </q>
      </span>
      {outsideChat && message.text.trim() !== '' && message.text.length <= MAX_MESSAGE_CHARS && (
        <button
          type="button"
          className="small primary"
          onClick={sendInNewChat}
          disabled={sending}
          data-testid="app-view-message-send"
        >
          {sending ? 'Sending…' : 'Send in a new chat'}
        </button>
      )}
      <button type="button" className="small" onClick={onDismiss} data-testid="app-view-message-dismiss">
        Dismiss
      </button>
      {problem && <span className="error-text small-print">{problem}</span>}
    </div>
  );
}
