import { useEffect, useMemo, useState } from 'react';
import type { ToolApprovalRequest } from '../../../shared/domain/chat.js';
import type { PendingRequest } from '../../../shared/domain/pending.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { ErrorBox } from '../../components/error-box.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';
import { useCatalog } from '../../hooks/use-catalog.js';
import { ApprovalCard } from './approval-card.js';
import { ChatHeader } from './chat-header.js';
import { Composer, type Draft } from './composer.js';
import { ConversationList } from './conversation-list.js';
import { MessageThread } from './message-thread.js';
import { SettingsPanel } from './settings-panel.js';
import { useChatRuns } from './use-chat-runs.js';
import { useChatSettings, useSecretStatus } from './use-chat-settings.js';
import { useConversations, type ConversationsState } from './use-conversations.js';
import { useSelection } from './use-selection.js';
import { useThread } from './use-thread.js';

/**
 * Chat: conversations on the left; the open one's messages, its tool calls and the
 * approvals it waits on in the middle; the composer below; settings in a side panel.
 */
export function ChatView({ pending }: { pending: PendingRequest[] }) {
  const host = useHost();
  const list = useConversations();
  const [selectedId, setSelectedId] = useSelection(list);
  const thread = useThread(selectedId);
  const runs = useChatRuns();
  const settings = useChatSettings();
  const secrets = useSecretStatus();
  const catalog = useCatalog();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [creating, setCreating] = useState(false);
  const [stopping, setStopping] = useState<string | null>(null);
  const [error, setError] = useState<HostError | null>(null);

  useEffect(() => {
    if (stopping && !runs.running.has(stopping)) setStopping(null);
  }, [runs.running, stopping]);
  useEffect(() => setError(null), [selectedId]);
  useEffect(
    () => host.on('app.showConversation', ({ conversationId }) => setSelectedId(conversationId)),
    [host, setSelectedId],
  );

  const { here, elsewhere, unassigned } = useMemo(
    () => splitPending(pending, selectedId, list),
    [pending, selectedId, list],
  );
  // An approval waiting for this conversation means its run is alive, even when this page
  // (reloaded mid-run) never saw the run start.
  const running = selectedId !== null && (runs.running.has(selectedId) || here.length > 0);

  const create = async (): Promise<string> => {
    setCreating(true);
    try {
      const conv = await host.invoke('chat.create', {});
      setSelectedId(conv.id);
      return conv.id;
    } finally {
      setCreating(false);
    }
  };

  const onNew = () => {
    setError(null);
    create().catch((e: unknown) => setError(asHostError(e)));
  };

  const onSend = async (draft: Draft): Promise<boolean> => {
    setError(null);
    try {
      // Sending with nothing open starts a conversation for it.
      const id = selectedId ?? (await create());
      const attachments = draft.attachments.map(({ serverId, uri }) => ({ serverId, uri }));
      const { runId } = await host.invoke('chat.send', {
        conversationId: id,
        text: draft.text,
        ...(attachments.length ? { attachments } : {}),
      });
      runs.started(id, runId);
      return true;
    } catch (e) {
      setError(asHostError(e));
      return false;
    }
  };

  const onStop = () => {
    if (!selectedId) return;
    const id = selectedId;
    setStopping(id);
    host.invoke('chat.stop', { conversationId: id }).then(
      // Nothing to stop: the run ended while we were not listening; stop showing it as running.
      ({ stopped }) => {
        if (!stopped) runs.forget(id);
      },
      (e: unknown) => {
        setStopping(null);
        setError(asHostError(e));
      },
    );
  };

  const keyMissing =
    settings.settings?.provider === 'gemini' && secrets.status !== null && !secrets.status.geminiApiKey;
  const summary = list.kind === 'ready' ? list.conversations.find((c) => c.id === selectedId) : undefined;
  // The list is live (renames from anywhere); the thread's copy is as of its last snapshot.
  const title = summary?.title ?? (thread.kind === 'ready' ? thread.thread.conversation.title : '');

  return (
    <section className="view chat-view" data-testid="chat-view">
      <div className={`chat-layout${settingsOpen ? ' with-settings' : ''}`}>
        <ConversationList
          state={list}
          selectedId={selectedId}
          running={runs.running}
          waiting={elsewhere}
          onSelect={setSelectedId}
          onNew={onNew}
          creating={creating}
        />
        <div className="chat-main">
          <ChatHeader
            conversationId={selectedId}
            title={title}
            settings={settings.settings}
            onOpenSettings={() => setSettingsOpen((o) => !o)}
            onError={setError}
          />
          {unassigned.length > 0 && (
            <div className="approval-queue" data-testid="approval-queue">
              {unassigned.map((a) => (
                <ApprovalCard key={a.id} request={a} />
              ))}
            </div>
          )}
          {keyMissing && (
            <div className="banner warn" data-testid="no-key-hint">
              {secrets.status?.keychainError
                ? `API keys cannot be stored: ${secrets.status.keychainError}`
                : 'No Gemini API key is stored.'}
              <button type="button" className="small" onClick={() => setSettingsOpen(true)}>
                Open settings
              </button>
            </div>
          )}
          {thread.kind === 'ready' && (
            <MessageThread thread={thread.thread} running={running} approvals={here} />
          )}
          {thread.kind === 'loading' && <div className="thread muted thread-note">Loading…</div>}
          {thread.kind === 'error' && (
            <div className="thread thread-note">
              <ErrorBox error={thread.error} />
            </div>
          )}
          {thread.kind === 'none' && (
            <div className="thread thread-note chat-welcome" data-testid="chat-welcome">
              <h2>Start a conversation</h2>
              <p className="muted">
                The model can use the tools of every connected server; each risky call waits for your approval
                here.
              </p>
            </div>
          )}
          {error && (
            <div className="composer-error">
              <ErrorBox error={error} testId="send-error" />
            </div>
          )}
          <Composer
            running={running}
            stopping={stopping === selectedId}
            disabled={thread.kind === 'loading' || thread.kind === 'error'}
            onSend={onSend}
            onStop={onStop}
          />
        </div>
        {settingsOpen && (
          <SettingsPanel
            handle={settings}
            secrets={secrets.status}
            onSecrets={secrets.setStatus}
            catalogKey={catalog.kind === 'ready' ? String(catalog.catalog.tools.length) : ''}
            onClose={() => setSettingsOpen(false)}
          />
        )}
      </div>
    </section>
  );
}

/** Approvals for the open conversation, counts for the others, and those tied to none we know. */
function splitPending(pending: PendingRequest[], selectedId: string | null, list: ConversationsState) {
  const known = new Set(list.kind === 'ready' ? list.conversations.map((c) => c.id) : []);
  const here: ToolApprovalRequest[] = [];
  const unassigned: ToolApprovalRequest[] = [];
  const elsewhere = new Map<string, number>();
  for (const p of pending) {
    if (p.kind !== 'tool-approval') continue;
    if (p.conversationId !== undefined && p.conversationId === selectedId) here.push(p);
    else if (p.conversationId !== undefined && known.has(p.conversationId))
      elsewhere.set(p.conversationId, (elsewhere.get(p.conversationId) ?? 0) + 1);
    else unassigned.push(p);
  }
  return { here, elsewhere, unassigned };
}
