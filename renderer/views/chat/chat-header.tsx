import { useState } from 'react';
import type { ChatSettings } from '../../../shared/domain/chat.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { ConversationTokens } from '../../components/metrics/conversation-tokens.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';
import { downloadText } from '../../lib/download.js';
import { Icon } from '../../components/icons.js';

/** The open conversation's title, the model in use, Export, and the settings toggle. */
export function ChatHeader({
  conversationId,
  title,
  settings,
  onOpenSettings,
  onError,
  listOpen = false,
  onToggleList,
}: {
  conversationId: string | null;
  title: string;
  settings: ChatSettings | null;
  onOpenSettings: () => void;
  onError: (e: HostError | null) => void;
  /** Whether the conversation list overlay is open (narrow windows only). */
  listOpen?: boolean;
  /** Shows or hides the conversation list; the toggle is visible only in narrow windows. */
  onToggleList?: () => void;
}) {
  const host = useHost();
  const [exporting, setExporting] = useState(false);
  const model = settings
    ? settings.provider === 'openai'
      ? settings.openaiModel
      : settings.geminiModel
    : null;

  const exportAs = (format: 'markdown' | 'json') => {
    if (!conversationId) return;
    setExporting(true);
    host.invoke('chat.export', { id: conversationId, format }).then(
      (file) => {
        setExporting(false);
        downloadText(file.filename, file.mimeType, file.content);
      },
      (e: unknown) => {
        setExporting(false);
        onError(asHostError(e));
      },
    );
  };

  return (
    <header className="view-header chat-header">
      {onToggleList && (
        <button
          type="button"
          className="small icon-only conversations-toggle"
          aria-label="Conversations"
          title="Conversations"
          aria-expanded={listOpen}
          aria-controls="conversation-pane"
          onClick={onToggleList}
          data-testid="conversations-toggle"
        >
          <Icon name="menu" />
        </button>
      )}
      <h1 className="chat-title" data-testid="conversation-title" title={title}>
        {conversationId ? title || 'Untitled' : 'Chat'}
      </h1>
      <div className="header-actions">
        <ConversationTokens conversationId={conversationId} />
        {conversationId && (
          <>
            <button
              type="button"
              className="small"
              disabled={exporting}
              onClick={() => exportAs('markdown')}
              title="Download as Markdown"
              data-testid="export-markdown"
            >
              <Icon name="download" size={14} /> Markdown
            </button>
            <button
              type="button"
              className="small"
              disabled={exporting}
              onClick={() => exportAs('json')}
              title="Download as JSON"
              data-testid="export-json"
            >
              <Icon name="download" size={14} /> JSON
            </button>
          </>
        )}
        <button
          type="button"
          className="small model-chip"
          onClick={onOpenSettings}
          title="Chat settings: provider, model, API key"
          data-testid="settings-open"
        >
          <Icon name="settings" size={14} />{' '}
          {model
            ? `${settings?.provider === 'openai' ? 'OpenAI-compatible' : 'Gemini'} · ${model}`
            : 'Settings'}
        </button>
      </div>
    </header>
  );
}
