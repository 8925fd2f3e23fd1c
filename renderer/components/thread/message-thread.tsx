import { Fragment } from 'react';
import type { ToolApprovalRequest } from '../../../shared/domain/chat.js';
import { ErrorBox } from '../error-box.js';
import { useStickToBottom } from '../../hooks/use-stick-to-bottom.js';
import { ApprovalCard } from './approval-card.js';
import type { ThreadNotice, ThreadState } from '../../lib/chat-reducer.js';
import { MessageView } from './message-view.js';

const END_TEXT = {
  stopped: 'Stopped.',
  'max-turns': 'Stopped: the model reached the maximum number of turns for one message (see Settings).',
  error: 'The run failed.',
} as const;

/** The messages of one conversation, its notices, and the approvals it is waiting on. */
export function MessageThread({
  thread,
  running,
  approvals,
}: {
  thread: ThreadState;
  running: boolean;
  approvals: ToolApprovalRequest[];
}) {
  const { conversation, notices, lastEnd } = thread;
  const messages = conversation.messages;
  // Any growth (a delta, a tool card, a card to approve) keeps the view pinned to the bottom.
  const size = JSON.stringify([
    messages.length,
    messages.at(-1)?.parts.length,
    lastTextLength(thread),
    notices.length,
    approvals.length,
    lastEnd?.reason,
  ]);
  const { ref, onScroll } = useStickToBottom<HTMLDivElement>(size);
  const lastAssistant = messages.at(-1)?.role === 'assistant' ? messages.at(-1)?.id : undefined;
  // A failure the host stored on a message is shown there; otherwise at the end.
  const errorShownOnMessage = messages.at(-1)?.error !== undefined;

  return (
    <div className="thread" ref={ref} onScroll={onScroll} data-testid="chat-thread">
      <div className="thread-inner">
        {messages.length === 0 && !running && (
          <p className="thread-empty muted">No messages yet. Ask something below.</p>
        )}
        <NoticesAt notices={notices} index={0} />
        {messages.map((m, i) => (
          <Fragment key={m.id}>
            <MessageView message={m} streaming={running && m.id === lastAssistant} />
            <NoticesAt notices={notices} index={i + 1} />
          </Fragment>
        ))}
        {running && messages.at(-1)?.role === 'user' && (
          <div className="message-row assistant">
            <div className="bubble assistant pending-bubble">
              <span className="typing" aria-label="waiting for the model" />
            </div>
          </div>
        )}
        {lastEnd && !running && (
          <div className={`system-line${lastEnd.reason === 'error' ? ' error' : ''}`} data-testid="run-end">
            {lastEnd.reason === 'error' && lastEnd.error && !errorShownOnMessage ? (
              <ErrorBox error={lastEnd.error} testId="run-error" />
            ) : (
              END_TEXT[lastEnd.reason]
            )}
          </div>
        )}
        {approvals.map((a) => (
          <ApprovalCard key={a.id} request={a} />
        ))}
      </div>
    </div>
  );
}

function NoticesAt({ notices, index }: { notices: ThreadNotice[]; index: number }) {
  return (
    <>
      {notices
        .filter((n) => n.afterMessages === index)
        .map((n) => (
          <div key={n.key} className="system-line" role="note" data-testid="chat-notice">
            {n.text}
          </div>
        ))}
    </>
  );
}

function lastTextLength(thread: ThreadState): number {
  const last = thread.conversation.messages.at(-1)?.parts.at(-1);
  return last && (last.type === 'text' || last.type === 'thinking') ? last.text.length : 0;
}
