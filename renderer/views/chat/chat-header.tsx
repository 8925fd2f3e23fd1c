import { useCallback, useEffect, useRef, useState } from 'react';
import type { ChatSettings } from '../../../shared/domain/chat.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { ConversationTokens } from '../../components/metrics/conversation-tokens.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';
import { downloadText } from '../../lib/download.js';
import { Icon } from '../../components/icons.js';
import { useEscapeWithin } from '../../hooks/use-escape-within.js';

/**
 * The open conversation's title (with its token count under it), Export, and the model chip that
 * opens the chat settings. The title gives way first: the actions never shrink.
 */
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
  const [exportOpen, setExportOpen] = useState(false);
  const exportMenu = useRef<HTMLDivElement>(null);
  const closeExport = useCallback(() => setExportOpen(false), []);
  useEscapeWithin(exportMenu, closeExport);
  useEffect(() => {
    if (!exportOpen) return undefined;
    const onDown = (e: PointerEvent) => {
      if (!exportMenu.current?.contains(e.target as Node)) setExportOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [exportOpen]);
  const model = settings
    ? settings.provider === 'openai'
      ? settings.openaiModel
      : settings.geminiModel
    : null;

  const exportAs = (format: 'markdown' | 'json') => {
    if (!conversationId) return;
    setExportOpen(false);
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
      <div className="chat-title-block">
        <h1 className="chat-title" data-testid="conversation-title" title={title}>
          {conversationId ? title || 'Untitled' : 'Chat'}
        </h1>
        <ConversationTokens conversationId={conversationId} />
      </div>
      <div className="header-actions">
        {conversationId && (
          <div className="export-menu" ref={exportMenu}>
            <button
              type="button"
              className="small"
              disabled={exporting}
              aria-expanded={exportOpen}
              aria-haspopup="true"
              onClick={() => setExportOpen((o) => !o)}
              title="Download this conversation"
              data-testid="export-menu"
            >
              <Icon name="download" size={14} /> {exporting ? 'Exporting…' : 'Export'}
            </button>
            {exportOpen && (
              <div className="export-popover panel" role="group" aria-label="Export as">
                <button
                  type="button"
                  className="small"
                  onClick={() => exportAs('markdown')}
                  title="Download as Markdown"
                  data-testid="export-markdown"
                >
                  Markdown
                </button>
                <button
                  type="button"
                  className="small"
                  onClick={() => exportAs('json')}
                  title="Download as JSON"
                  data-testid="export-json"
                >
                  JSON
                </button>
              </div>
            )}
          </div>
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
