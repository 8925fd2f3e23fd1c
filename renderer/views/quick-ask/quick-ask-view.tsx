import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { HostError } from '../../../shared/domain/server-state.js';
import { ErrorBox } from '../../components/error-box.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';
import { useActiveRun } from '../../hooks/use-conversations.js';
import { usePending } from '../../hooks/use-pending.js';
import { MessageThread } from '../../components/thread/message-thread.js';
import { useSecretStatus, useChatSettings } from '../../hooks/use-chat-settings.js';
import { useThread } from '../../hooks/use-thread.js';

/** A conversation's title from the question that started it: its first line, short. */
function titleFor(question: string): string {
  const line = question.trim().split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}…` : line || 'Quick ask';
}

/**
 * The tray's quick-ask window: one question, the answer streaming below it, approvals
 * inline. It is an ordinary conversation on the same engine, tools and approval policy,
 * so "Open in main window" just shows that conversation there.
 */
export function QuickAskView() {
  const host = useHost();
  const pending = usePending();
  const settings = useChatSettings();
  const secrets = useSecretStatus();
  const [conversationId, setConversationId] = useState<string | null>(null);
  const [question, setQuestion] = useState('');
  const [error, setError] = useState<HostError | null>(null);
  const [sending, setSending] = useState(false);
  const thread = useThread(conversationId);
  const input = useRef<HTMLTextAreaElement>(null);
  const approvals = pending.flatMap((p) =>
    p.kind === 'tool-approval' && p.conversationId === conversationId && conversationId !== null ? [p] : [],
  );
  // The host's word on whether the conversation is answering (its `activeRunId`).
  const running = useActiveRun(conversationId) !== null;

  useEffect(() => {
    // Escape hides the window (the desktop app keeps it for the next shortcut press).
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') window.close();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const ask = async (e: FormEvent) => {
    e.preventDefault();
    const text = question.trim();
    if (!text || sending) return;
    setSending(true);
    setError(null);
    try {
      // A follow-up continues the same conversation; the first question starts one.
      const id = conversationId ?? (await host.invoke('chat.create', { title: titleFor(text) })).id;
      setConversationId(id);
      await host.invoke('chat.send', { conversationId: id, text });
      setQuestion('');
    } catch (err) {
      setError(asHostError(err));
    } finally {
      setSending(false);
    }
  };

  const openInMain = () => {
    if (!conversationId) return;
    host
      .invoke('app.showConversation', { conversationId })
      .catch((err: unknown) => setError(asHostError(err)));
  };

  const startOver = () => {
    setConversationId(null);
    setError(null);
    setQuestion('');
    input.current?.focus();
  };

  const keyMissing =
    settings.settings?.provider === 'gemini' && secrets.status !== null && !secrets.status.geminiApiKey;

  return (
    <div className="quick-ask" data-testid="quick-ask">
      <form className="quick-ask-form" onSubmit={(e) => void ask(e)}>
        <textarea
          ref={input}
          // eslint-disable-next-line jsx-a11y/no-autofocus -- the window exists to take one question: typing starts at once
          autoFocus
          rows={2}
          value={question}
          placeholder={
            conversationId ? 'Ask a follow-up…' : 'Ask anything; the model can use your servers’ tools'
          }
          aria-label="Question"
          data-testid="quick-ask-input"
          onChange={(e) => setQuestion(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) void ask(e);
          }}
        />
        <button type="submit" disabled={sending || running || !question.trim()} data-testid="quick-ask-send">
          Ask
        </button>
      </form>
      {keyMissing && (
        <div className="banner warn" data-testid="quick-ask-no-key">
          No Gemini API key is stored: set one in the main window’s chat settings.
        </div>
      )}
      {error && <ErrorBox error={error} testId="quick-ask-error" />}
      {thread.kind === 'ready' && (
        <MessageThread thread={thread.thread} running={running} approvals={approvals} />
      )}
      {thread.kind === 'error' && <ErrorBox error={thread.error} />}
      <footer className="quick-ask-foot">
        <button
          type="button"
          className="small"
          disabled={!conversationId}
          onClick={openInMain}
          data-testid="quick-ask-open-main"
        >
          Open in main window
        </button>
        <button
          type="button"
          className="small"
          disabled={!conversationId || running}
          onClick={startOver}
          data-testid="quick-ask-new"
        >
          New question
        </button>
        {running && conversationId && (
          <button
            type="button"
            className="small"
            onClick={() => void host.invoke('chat.stop', { conversationId })}
            data-testid="quick-ask-stop"
          >
            Stop
          </button>
        )}
        <span className="muted quick-ask-hint">Esc hides this window</span>
      </footer>
    </div>
  );
}
