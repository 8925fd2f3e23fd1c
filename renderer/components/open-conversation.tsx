import { MessageSquare } from 'lucide-react';
import { useState } from 'react';
import { asHostError } from '../host/errors.js';
import { useHost } from '../host/host-context.js';

/**
 * "Open conversation": shows Chat with that conversation selected (the host tells the window,
 * as the quick-ask window's hand-off does). A conversation deleted since says so in place.
 */
export function OpenConversation({ conversationId }: { conversationId: string }) {
  const host = useHost();
  const [problem, setProblem] = useState<string | null>(null);
  const open = () => {
    setProblem(null);
    host
      .invoke('app.showConversation', { conversationId })
      .catch((e: unknown) =>
        setProblem(
          asHostError(e).code === 'conversation_not_found'
            ? 'That conversation was deleted.'
            : asHostError(e).message,
        ),
      );
  };
  return (
    <span className="open-conversation">
      <button type="button" className="small" onClick={open} data-testid="open-conversation">
        <MessageSquare aria-hidden="true" size={14} /> Open conversation
      </button>
      {problem && (
        <span className="muted small-print" role="status">
          {problem}
        </span>
      )}
    </span>
  );
}

/** The conversation an audit record or a request belongs to, when it names one. */
export function conversationOf(details: Record<string, unknown> | undefined): string | undefined {
  const id = details?.conversationId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}
