import { Search } from 'lucide-react';
import { useState } from 'react';
import type { ConversationSummary } from '../../../shared/domain/chat.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { ErrorBox } from '../../components/error-box.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';
import type { ConversationsState } from '../../hooks/use-conversations.js';
import { useConversationSearch } from './use-conversation-search.js';

const NONE: ConversationSummary[] = [];
import { Icon } from '../../components/icons.js';

/** The conversations, newest first: select, start a new one, rename in place, delete after a confirm. */
export function ConversationList({
  state,
  selectedId,
  waiting,
  onSelect,
  onNew,
  creating,
}: {
  state: ConversationsState;
  selectedId: string | null;
  /** Approvals waiting, per conversation id. */
  waiting: ReadonlyMap<string, number>;
  onSelect: (id: string) => void;
  onNew: () => void;
  creating: boolean;
}) {
  const [error, setError] = useState<HostError | null>(null);
  const [query, setQuery] = useState('');
  const all = state.kind === 'ready' ? state.conversations : NONE;
  const filter = useConversationSearch(all, query);
  return (
    <div className="conversation-list" data-testid="conversation-list">
      <div className="conversation-list-head">
        <button
          type="button"
          className="primary new-chat"
          onClick={onNew}
          disabled={creating}
          data-testid="new-chat"
        >
          + New chat
        </button>
      </div>
      <div className="conversation-search">
        <Search size={14} aria-hidden="true" className="conversation-search-icon" />
        <input
          type="search"
          value={query}
          placeholder="Search chats"
          aria-label="Search conversations by title or text"
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && query) {
              e.stopPropagation();
              setQuery('');
            }
          }}
          data-testid="conversation-search"
        />
      </div>
      {error && <ErrorBox error={error} testId="conversation-error" />}
      {state.kind === 'loading' && <p className="muted list-note">Loading…</p>}
      {state.kind === 'error' && <ErrorBox error={state.error} />}
      {state.kind === 'ready' && state.conversations.length === 0 && (
        <p className="muted list-note">No conversations yet.</p>
      )}
      {state.kind === 'ready' && query.trim() !== '' && filter.conversations.length === 0 && (
        <p className="muted list-note" role="status" data-testid="conversation-search-empty">
          {filter.searching ? 'Searching…' : `No chats match “${query.trim()}”.`}
        </p>
      )}
      {state.kind === 'ready' && (
        <ul className="item-list">
          {filter.conversations.map((c) => (
            <ConversationItem
              key={c.id}
              summary={c}
              selected={c.id === selectedId}
              running={c.activeRunId !== undefined}
              waiting={waiting.get(c.id) ?? 0}
              snippet={filter.snippets.get(c.id)}
              onSelect={() => onSelect(c.id)}
              onError={setError}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

type Mode = { kind: 'view' } | { kind: 'rename'; draft: string } | { kind: 'confirm-delete' };

function ConversationItem({
  summary,
  selected,
  running,
  waiting,
  snippet,
  onSelect,
  onError,
}: {
  summary: ConversationSummary;
  selected: boolean;
  running: boolean;
  waiting: number;
  /** Where a search found this conversation's text. */
  snippet?: string;
  onSelect: () => void;
  onError: (e: HostError | null) => void;
}) {
  const host = useHost();
  const [mode, setMode] = useState<Mode>({ kind: 'view' });
  const [busy, setBusy] = useState(false);

  const act = (call: Promise<unknown>) => {
    setBusy(true);
    onError(null);
    call.then(
      () => {
        setBusy(false);
        setMode({ kind: 'view' });
      },
      (e: unknown) => {
        setBusy(false);
        onError(asHostError(e));
      },
    );
  };

  const saveRename = (draft: string) => {
    const title = draft.trim();
    if (!title || title === summary.title) setMode({ kind: 'view' });
    else act(host.invoke('chat.rename', { id: summary.id, title }));
  };

  if (mode.kind === 'rename') {
    return (
      <li className="conversation-item editing" data-testid={`conversation-item-${summary.id}`}>
        <input
          // eslint-disable-next-line jsx-a11y/no-autofocus -- the person just chose Rename: the title field is where they type
          autoFocus
          value={mode.draft}
          maxLength={200}
          disabled={busy}
          aria-label="Conversation title"
          onChange={(e) => setMode({ kind: 'rename', draft: e.target.value })}
          onKeyDown={(e) => {
            if (e.key === 'Enter') saveRename(mode.draft);
            if (e.key === 'Escape') setMode({ kind: 'view' });
          }}
          onBlur={() => saveRename(mode.draft)}
          data-testid="conversation-rename-input"
        />
      </li>
    );
  }

  return (
    <li
      className={`conversation-item${selected ? ' selected' : ''}`}
      data-testid={`conversation-item-${summary.id}`}
    >
      <button
        type="button"
        className="conversation-select"
        aria-current={selected ? 'true' : undefined}
        onClick={onSelect}
      >
        <span className="conversation-name">{summary.title || 'Untitled'}</span>
        <span className="conversation-meta muted">
          {running && <span className="dot-running" title="running" />}
          {waiting > 0 && (
            <span
              className="badge warn-badge"
              title="waiting for your approval"
              data-testid={`conversation-waiting-${summary.id}`}
            >
              {waiting}
            </span>
          )}
          {formatWhen(summary.updatedAt)}
        </span>
        {snippet && (
          <span className="conversation-snippet muted" data-testid="conversation-snippet">
            {snippet}
          </span>
        )}
      </button>
      {mode.kind === 'confirm-delete' ? (
        <div className="conversation-confirm">
          <span>Delete?</span>
          <button
            type="button"
            className="small danger"
            disabled={busy}
            onClick={() => act(host.invoke('chat.delete', { id: summary.id }))}
            data-testid="conversation-delete-confirm"
          >
            Delete
          </button>
          <button
            type="button"
            className="small"
            onClick={() => setMode({ kind: 'view' })}
            data-testid="conversation-delete-cancel"
          >
            Keep
          </button>
        </div>
      ) : (
        <div className="conversation-actions">
          <button
            type="button"
            className="icon-button"
            title="Rename"
            aria-label="Rename"
            onClick={() => setMode({ kind: 'rename', draft: summary.title })}
            data-testid="conversation-rename"
          >
            <Icon name="rename" size={14} />
          </button>
          <button
            type="button"
            className="icon-button"
            title="Delete"
            aria-label="Delete"
            onClick={() => setMode({ kind: 'confirm-delete' })}
            data-testid="conversation-delete"
          >
            <Icon name="remove" size={14} />
          </button>
        </div>
      )}
    </li>
  );
}

/** "14:05" today, otherwise "3 Mar". */
function formatWhen(at: number): string {
  const d = new Date(at);
  const now = new Date();
  if (d.toDateString() === now.toDateString())
    return d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return d.toLocaleDateString(undefined, { day: 'numeric', month: 'short' });
}
