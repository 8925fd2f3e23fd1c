import { useVirtualizer } from '@tanstack/react-virtual';
import { RotateCcw } from 'lucide-react';
import { memo, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ToolApprovalRequest } from '../../../shared/domain/chat.js';
import { ErrorBox } from '../error-box.js';
import { usePinnedScroll } from '../../hooks/use-pinned-scroll.js';
import { ApprovalCard } from './approval-card.js';
import { RunningTasks } from './running-tasks.js';
import type { ThreadNotice, ThreadState } from '../../lib/chat-reducer.js';
import type { MessageActionsHandle } from './message-actions.js';
import { MessageView } from './message-view.js';

const END_TEXT = {
  stopped: 'Stopped.',
  'max-turns': 'Stopped: the model reached the maximum number of turns for one message (see Settings).',
  error: 'The run failed.',
} as const;

/** A first guess at a message's height; every rendered one is measured. */
const ESTIMATED_HEIGHT = 88;
/** The space between messages (the virtual rows are positioned, so CSS gap cannot apply). */
const GAP = 12;
const NO_NOTICES: ThreadNotice[] = [];

/**
 * The messages of one conversation, its notices, and the approvals it is waiting on. Only
 * the messages near the viewport are in the DOM (a thousand-message chat opens as fast as a
 * short one); the view starts at the newest and follows a streaming reply while the person
 * stays at the bottom.
 */
export function MessageThread({
  thread,
  running,
  approvals,
  actions = null,
}: {
  thread: ThreadState;
  running: boolean;
  approvals: ToolApprovalRequest[];
  /** Retry on a failed run (absent: none); the messages' own buttons read MessageActionsContext. */
  actions?: MessageActionsHandle | null;
}) {
  const { conversation, notices, lastEnd } = thread;
  const messages = conversation.messages;
  // Declared before the virtualiser so its first scroll to the bottom is what the range reads.
  const { scrollRef, contentRef, onScroll } = usePinnedScroll<HTMLDivElement, HTMLDivElement>();
  const [listTop, setListTop] = useState(0);
  // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler here; rows re-render with the virtualiser
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_HEIGHT,
    getItemKey: (i) => messages[i]?.id ?? i,
    overscan: 6,
    gap: GAP,
    scrollMargin: listTop,
    // Open at the newest message, not at the top and then jump.
    initialOffset: () => Number.MAX_SAFE_INTEGER,
  });
  const listRef = useRef<HTMLDivElement | null>(null);
  const hasMessages = messages.length > 0;
  useLayoutEffect(() => {
    // The list's offset inside the scroller (the padding above it) places the rows exactly.
    const top = listRef.current?.offsetTop ?? 0;
    if (top !== listTop) setListTop(top);
  }, [listTop, hasMessages]);
  const byIndex = useMemo(() => noticesByIndex(notices), [notices]);
  const lastAssistant = messages.at(-1)?.role === 'assistant' ? messages.at(-1)?.id : undefined;
  // A failure the host stored on a message is shown there; otherwise at the end.
  const errorShownOnMessage = messages.at(-1)?.error !== undefined;
  const rows = virtualizer.getVirtualItems();
  // A run that ended in an error (now, or as stored) can be run again from its user turn.
  const failed = !running && (lastEnd?.reason === 'error' || errorShownOnMessage);
  const failedTurn = failed ? messages.findLast((m) => m.role === 'user')?.id : undefined;

  return (
    <div className="thread" ref={scrollRef} onScroll={onScroll} data-testid="chat-thread">
      <div className="thread-inner" ref={contentRef}>
        {messages.length === 0 && !running && (
          <p className="thread-empty muted">No messages yet. Ask something below.</p>
        )}
        {messages.length === 0 && <NoticesAt notices={byIndex.get(0) ?? NO_NOTICES} />}
        {messages.length > 0 && (
          <div
            ref={listRef}
            className="thread-list"
            role="feed"
            aria-label="Messages"
            aria-busy={running}
            style={{ height: virtualizer.getTotalSize() }}
            data-testid="thread-list"
          >
            {rows.map((row) => {
              const m = messages[row.index];
              return (
                <div
                  key={row.key}
                  ref={virtualizer.measureElement}
                  data-index={row.index}
                  className="thread-row"
                  role="article"
                  aria-posinset={row.index + 1}
                  aria-setsize={messages.length}
                  aria-label={
                    m.role === 'user' ? (m.origin ? 'Message from an app view' : 'Your message') : 'Reply'
                  }
                  // --row-y lets a view in full screen or floating drop the transform (which
                  // would trap its fixed position inside this row) and keep the row in place.
                  style={{
                    transform: `translateY(${row.start - listTop}px)`,
                    ['--row-y' as string]: `${row.start - listTop}px`,
                  }}
                >
                  {row.index === 0 && <NoticesAt notices={byIndex.get(0) ?? NO_NOTICES} />}
                  <MessageView message={m} streaming={running && m.id === lastAssistant} />
                  <NoticesAt notices={byIndex.get(row.index + 1) ?? NO_NOTICES} />
                </div>
              );
            })}
          </div>
        )}
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
        {failedTurn && actions && (
          <div className="run-retry">
            <button
              type="button"
              className="small"
              onClick={() => actions.onRetry(failedTurn)}
              data-testid="run-retry"
            >
              <RotateCcw size={14} aria-hidden="true" /> Retry
            </button>
          </div>
        )}
        {approvals.map((a) => (
          <ApprovalCard key={a.id} request={a} />
        ))}
        <RunningTasks conversationId={conversation.id} messages={messages} />
      </div>
    </div>
  );
}

const NoticesAt = memo(function NoticesAt({ notices }: { notices: ThreadNotice[] }) {
  return (
    <>
      {notices.map((n) => (
        <div key={n.key} className="system-line" role="note" data-testid="chat-notice">
          {n.text}
        </div>
      ))}
    </>
  );
});

/** Notices grouped by the number of messages before them. */
function noticesByIndex(notices: ThreadNotice[]): Map<number, ThreadNotice[]> {
  const map = new Map<number, ThreadNotice[]>();
  for (const n of notices) map.set(n.afterMessages, [...(map.get(n.afterMessages) ?? []), n]);
  return map;
}
