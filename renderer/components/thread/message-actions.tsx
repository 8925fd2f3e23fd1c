import { Check, Copy, Pencil, RotateCcw } from 'lucide-react';
import { createContext, useContext, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { ChatMessage, RunRetry } from '../../../shared/domain/chat.js';
import type { HostError } from '../../../shared/domain/server-state.js';

/** What a thread lets a person do with its messages; absent (read-only views), no buttons show. */
export interface MessageActionsHandle {
  /** A run is answering: Retry and Edit wait until it ends. */
  running: boolean;
  /** Run again from this message's user turn. */
  onRetry: (messageId: string) => void;
  /** Replace a user message's text and answer it again; resolves true when the run started. */
  onEdit: (messageId: string, text: string) => Promise<boolean>;
}

/** Handed down by the thread so memoised messages need no callback props. */
export const MessageActionsContext = createContext<MessageActionsHandle | null>(null);

/** The text a message's Copy puts on the clipboard: what was typed, or what the model wrote. */
export function copyText(message: ChatMessage): string {
  return message.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n\n');
}

/** Copy, Retry and (on the person's own messages) Edit, under a message. */
export function MessageActions({ message, onEdit }: { message: ChatMessage; onEdit?: () => void }) {
  const actions = useContext(MessageActionsContext);
  const [copied, setCopied] = useState<'ok' | 'failed' | null>(null);
  useEffect(() => {
    if (!copied) return undefined;
    const t = setTimeout(() => setCopied(null), 1500);
    return () => clearTimeout(t);
  }, [copied]);
  if (!actions) return null;
  const text = copyText(message);
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => setCopied('ok'),
      () => setCopied('failed'),
    );
  return (
    <div className="message-actions" data-testid="message-actions">
      {text && (
        <button
          type="button"
          className="icon-button"
          onClick={() => void copy()}
          aria-label={copied === 'ok' ? 'Copied' : 'Copy message'}
          title={copied === 'failed' ? 'The clipboard refused the text' : 'Copy'}
          data-testid="message-copy"
        >
          {copied === 'ok' ? <Check size={14} aria-hidden="true" /> : <Copy size={14} aria-hidden="true" />}
        </button>
      )}
      <button
        type="button"
        className="icon-button"
        onClick={() => actions.onRetry(message.id)}
        disabled={actions.running}
        aria-label={message.role === 'user' ? 'Send this message again' : 'Retry this answer'}
        title="Retry: answer again from here (later messages are replaced)"
        data-testid="message-retry"
      >
        <RotateCcw size={14} aria-hidden="true" />
      </button>
      {onEdit && (
        <button
          type="button"
          className="icon-button"
          onClick={onEdit}
          disabled={actions.running}
          aria-label="Edit and resend"
          title="Edit and resend (later messages are replaced)"
          data-testid="message-edit"
        >
          <Pencil size={14} aria-hidden="true" />
        </button>
      )}
    </div>
  );
}

/** A user message's text in place, editable: Enter (or Send) resends, Escape cancels. */
export function MessageEditor({
  message,
  initial,
  onDone,
}: {
  message: ChatMessage;
  initial: string;
  onDone: () => void;
}) {
  const actions = useContext(MessageActionsContext);
  const [text, setText] = useState(initial);
  const [busy, setBusy] = useState(false);
  const box = useRef<HTMLTextAreaElement | null>(null);
  useEffect(() => {
    box.current?.focus();
    box.current?.select();
  }, []);
  if (!actions) return null;
  const submit = () => {
    if (busy || !text.trim() || actions.running) return;
    setBusy(true);
    void actions.onEdit(message.id, text).then((ok) => {
      setBusy(false);
      if (ok) onDone();
    });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.nativeEvent.isComposing) return;
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onDone();
    } else if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      submit();
    }
  };
  return (
    <div className="message-editor" data-testid="message-editor">
      <textarea
        ref={box}
        value={text}
        rows={Math.min(10, Math.max(2, text.split('\n').length))}
        aria-label="Edit your message"
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        disabled={busy}
        data-testid="message-edit-input"
      />
      <p className="muted small-note">Sending replaces the answers after this message.</p>
      <div className="inline-row">
        <button
          type="button"
          className="small"
          onClick={onDone}
          disabled={busy}
          data-testid="message-edit-cancel"
        >
          Cancel
        </button>
        <button
          type="button"
          className="primary small"
          onClick={submit}
          disabled={busy || !text.trim() || actions.running}
          data-testid="message-edit-send"
        >
          {busy ? 'Sending…' : 'Send'}
        </button>
      </div>
    </div>
  );
}

/** The retries a failed (or retried) model turn went through, under its one error. */
export function RetryList({ retries, error }: { retries: readonly RunRetry[]; error?: HostError }) {
  const total = retries.reduce((n, r) => n + r.count, 0);
  if (total === 0) return null;
  const attempts = total + 1;
  return (
    <div className="retry-list" data-testid="retry-list">
      <div className="retry-head">
        {error
          ? `Tried ${attempts} times before giving up`
          : `Retried ${total} ${total === 1 ? 'time' : 'times'} before the model answered`}
      </div>
      <ul>
        {retries.map((r) => (
          <li key={r.message} data-testid="retry-item">
            {r.message === error?.message ? 'The same error' : r.message}
            {r.count > 1 ? ` (${r.count} times)` : ''}
          </li>
        ))}
      </ul>
    </div>
  );
}
