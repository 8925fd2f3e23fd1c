import { memo, useState } from 'react';
import type { Attachment, ChatMessage, ChatPart } from '../../../shared/domain/chat.js';
import { noteRender } from '../../lib/render-probe.js';
import { ErrorBox } from '../error-box.js';
import { LazyMarkdown } from '../markdown/lazy-markdown.js';
import { copyText, MessageActions, MessageEditor, RetryList } from './message-actions.js';
import { ToolCallCard } from './tool-call-card.js';
import { OfferSummary } from './offer-summary.js';
import { SearchCallCard } from './search-call-card.js';
import { Icon } from '../icons.js';
import { MessageFileChips } from './message-files.js';

/**
 * One message bubble: the person's words as typed, the model's as sanitised Markdown. Memoised:
 * the chat reducer keeps every untouched message's object, so a streamed token re-renders
 * only the message it extends.
 */
export const MessageView = memo(function MessageView({
  message,
  streaming,
}: {
  message: ChatMessage;
  streaming: boolean;
}) {
  noteRender('message', message.id);
  const [editing, setEditing] = useState(false);
  if (message.role === 'user') {
    const attachments = message.parts.flatMap((p) => (p.type === 'attachment' ? [p.attachment] : []));
    const files = message.parts.flatMap((p) => (p.type === 'file' ? [p.file] : []));
    const text = copyText(message);
    return (
      <div className="message-row user">
        <div className="message-stack">
          <div
            className="bubble user"
            data-testid="message-user"
            data-message-id={message.id}
            {...(message.origin ? { 'data-origin': message.origin.kind } : {})}
          >
            {message.origin?.kind === 'app' && (
              <div className="message-origin muted small-print" data-testid="message-origin">
                Sent by the {message.origin.tool} view from {message.origin.serverId}
              </div>
            )}
            {attachments.length > 0 && <AttachmentChips attachments={attachments} />}
            {files.length > 0 && <MessageFileChips files={files} />}
            {editing ? (
              <MessageEditor message={message} initial={text} onDone={() => setEditing(false)} />
            ) : (
              text && <div className="user-text">{text}</div>
            )}
            {message.error && <ErrorBox error={message.error} testId="run-error" />}
          </div>
          {!editing && <MessageActions message={message} onEdit={() => setEditing(true)} />}
        </div>
      </div>
    );
  }
  const empty = message.parts.length === 0;
  // While a tool card is the newest thing, the card says what is happening; no caret under it.
  const writing = streaming && message.parts.at(-1)?.type !== 'tool_call';
  return (
    <div className="message-row assistant">
      <div className="bubble assistant" data-testid="message-assistant" data-message-id={message.id}>
        {message.offer && <OfferSummary offer={message.offer} />}
        {message.parts.map((part, i) => (
          <AssistantPart key={partKey(part, i)} part={part} />
        ))}
        {writing && <span className={empty ? 'typing' : 'caret'} aria-label="the model is writing" />}
        {message.error && <ErrorBox error={message.error} testId="run-error" />}
        {message.retries && <RetryList retries={message.retries} error={message.error} />}
        <div className="message-foot">
          {!streaming && <MessageActions message={message} />}
          {message.model && <div className="message-meta muted">{message.model}</div>}
        </div>
      </div>
    </div>
  );
});

function AssistantPart({ part }: { part: ChatPart }) {
  switch (part.type) {
    case 'text':
      return (
        <div className="assistant-text" data-testid="assistant-text">
          <LazyMarkdown text={part.text} />
        </div>
      );
    case 'thinking':
      return (
        <details className="thinking" data-testid="thinking">
          <summary>Thinking</summary>
          <LazyMarkdown text={part.text} />
        </details>
      );
    case 'tool_call':
      return part.call.host === 'tool-search' ? (
        <SearchCallCard call={part.call} />
      ) : (
        <ToolCallCard call={part.call} />
      );
    case 'attachment':
      return <AttachmentChips attachments={[part.attachment]} />;
    case 'file':
      return <MessageFileChips files={[part.file]} />;
  }
}

/** Tool calls keep their identity across updates; text parts are positional. */
function partKey(part: ChatPart, index: number): string {
  return part.type === 'tool_call' ? `call-${part.call.id}` : `${part.type}-${index}`;
}

function AttachmentChips({ attachments }: { attachments: Attachment[] }) {
  return (
    <div className="chips">
      {attachments.map((a) => (
        <span
          key={`${a.serverId} ${a.uri}`}
          className="chip"
          title={`${a.serverId}: ${a.uri}`}
          data-testid="message-attachment"
        >
          <Icon name="attachment" size={14} /> {a.name}
        </span>
      ))}
    </div>
  );
}
