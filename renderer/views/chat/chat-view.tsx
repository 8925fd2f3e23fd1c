import { lazy, Suspense, useCallback, useMemo, useRef, useState } from 'react';
import type { ToolApprovalRequest, ToolSwitches } from '../../../shared/domain/chat.js';
import type { PendingRequest } from '../../../shared/domain/pending.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { ErrorBox } from '../../components/error-box.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';
import { useCatalog } from '../../hooks/use-catalog.js';
import { ApprovalCard } from '../../components/thread/approval-card.js';
import { ChatHeader } from './chat-header.js';
import { Composer } from './composer.js';
import { BEING_CREATED, NO_CONVERSATION, type Draft } from './drafts.js';
import { ConversationList } from './conversation-list.js';
import { MessageThread } from '../../components/thread/message-thread.js';
import { AppViewConversation } from '../../components/mcp-app/tool-app-view.js';
import { useChatSettings, useSecretStatus } from '../../hooks/use-chat-settings.js';
import { useActiveRun, useConversations, type ConversationsState } from '../../hooks/use-conversations.js';
import { useHostEvent, useSnapshot } from '../../hooks/use-host-state.js';
import { useSelection } from './use-selection.js';
import { useNewConversation } from './use-new-conversation.js';
import { useViewTarget } from '../../hooks/use-view-target.js';
import { useThread } from '../../hooks/use-thread.js';
import { useServers } from '../../hooks/use-servers.js';
import { MessageActionsContext, type MessageActionsHandle } from '../../components/thread/message-actions.js';
import type { ViewName } from '../../components/nav.js';
import {
  FirstRunChecklist,
  firstRunSteps,
  noServerConnected,
  NoServersBanner,
  type FirstRunTarget,
} from './first-run.js';
import { ToolsChip } from './tools-chip.js';
import { ModelPicker } from './model-picker.js';
import { FailedServersNote } from './failed-servers-note.js';
import { useEscapeWithin } from '../../hooks/use-escape-within.js';

// Settings open rarely; their form (and the model list) loads the first time they do.
const SettingsPanel = lazy(() => import('./settings-panel.js').then((m) => ({ default: m.SettingsPanel })));

/**
 * Chat: conversations on the left; the open one's messages, its tool calls and the
 * approvals it waits on in the middle; the composer below; settings in a side panel.
 */
export function ChatView({
  pending,
  onShown,
  onGo,
}: {
  pending: PendingRequest[];
  onShown: () => void;
  /** Show another view (the first-run buttons); `add-server` / `import` open the Servers view's Add form / Import view. */
  onGo?: (view: ViewName, intent?: 'add-server' | 'import') => void;
}) {
  const host = useHost();
  const list = useConversations();
  const [selectedId, setSelectedId] = useSelection(list);
  const thread = useThread(selectedId);
  const activeRun = useActiveRun(selectedId);
  const settings = useChatSettings();
  const secrets = useSecretStatus();
  const catalog = useCatalog();
  const servers = useServers();
  const roots = useSnapshot('roots');
  const [settingsOpen, setSettingsOpen] = useState(false);
  // The switches a chip change returned, until the thread's own snapshot catches up.
  const [switched, setSwitched] = useState<{ id: string; switches: ToolSwitches } | null>(null);
  // Below ~1000 px the conversation list is an overlay behind a toggle in the header.
  const [listOpen, setListOpen] = useState(false);
  const listPane = useRef<HTMLDivElement>(null);
  const closeList = useCallback(() => setListOpen(false), []);
  useEscapeWithin(listPane, closeList);
  const { creating, create, target } = useNewConversation(setSelectedId);
  // The run Stop was pressed for: "stopping" lasts exactly as long as the host says it runs.
  const [stoppingRun, setStoppingRun] = useState<string | null>(null);
  const [error, setError] = useState<HostError | null>(null);
  // An error belongs to the conversation it happened in: opening another one clears it
  // (adjusted during render, React's pattern for state that follows a changing value).
  const [errorFor, setErrorFor] = useState(selectedId);
  if (errorFor !== selectedId) {
    setErrorFor(selectedId);
    setError(null);
  }

  // The quick-ask window's "open in main window": select it here; the app shows this view.
  useHostEvent(
    'app.showConversation',
    useCallback(
      ({ conversationId }: { conversationId: string }) => {
        setSelectedId(conversationId);
        onShown();
      },
      [setSelectedId, onShown],
    ),
  );

  const { here, elsewhere, unassigned } = useMemo(
    () => splitPending(pending, selectedId, list),
    [pending, selectedId, list],
  );
  // The host's word on whether this conversation is answering (its `activeRunId`).
  const running = activeRun !== null;

  const onNew = () => {
    setError(null);
    create(selectedId ?? NO_CONVERSATION).catch((e: unknown) => setError(asHostError(e)));
  };

  // The command palette opens a conversation; the new-chat shortcut starts one.
  useViewTarget('chat', (t) => ('conversationId' in t ? setSelectedId(t.conversationId) : onNew()));

  const onSend = async (draft: Draft): Promise<string | false> => {
    setError(null);
    try {
      // Right after "New chat", the new conversation; with nothing open, a new one.
      const id = await target(selectedId);
      const attachments = draft.attachments.map(({ serverId, uri }) => ({ serverId, uri }));
      const files = draft.files.flatMap((f) => (f.file ? [f.file.id] : []));
      await host.invoke('chat.send', {
        conversationId: id,
        text: draft.text,
        ...(attachments.length ? { attachments } : {}),
        ...(files.length ? { files } : {}),
      });
      return id;
    } catch (e) {
      setError(asHostError(e));
      return false;
    }
  };

  const onStop = () => {
    if (!selectedId) return;
    setStoppingRun(activeRun);
    host.invoke('chat.stop', { conversationId: selectedId }).catch((e: unknown) => {
      setStoppingRun(null);
      setError(asHostError(e));
    });
  };

  const actions = useMemo<MessageActionsHandle | null>(() => {
    if (!selectedId) return null;
    const fail = (e: unknown) => {
      setError(asHostError(e));
      return false;
    };
    return {
      running,
      onRetry: (messageId) => {
        setError(null);
        host.invoke('chat.retry', { conversationId: selectedId, messageId }).catch(fail);
      },
      onEdit: (messageId, text) => {
        setError(null);
        return host
          .invoke('chat.edit', { conversationId: selectedId, messageId, text })
          .then(() => true, fail);
      },
    };
  }, [host, selectedId, running]);

  const go = (target: FirstRunTarget) => {
    if (target === 'key') {
      setSettingsOpen(true);
      focusWhenShown('[data-testid="api-key-input"]');
    } else if (target === 'composer') focusWhenShown('[data-testid="chat-input"]');
    else if (target === 'folders') onGo?.('roots');
    else onGo?.('servers', target === 'add-server' || target === 'import' ? target : undefined);
  };

  const steps = firstRunSteps({
    settings: settings.settings,
    secrets: secrets.status,
    servers,
    roots: roots.kind === 'ready' ? roots.value.length : null,
    conversations: list,
  });
  const empty =
    thread.kind === 'none' || (thread.kind === 'ready' && thread.thread.conversation.messages.length === 0);
  const checklist =
    steps && !settings.settings?.checklistDismissed && steps.some((st) => !st.done) && empty && !running
      ? steps
      : null;
  const noServers = servers.kind === 'ready' && noServerConnected(servers.servers);
  const switches =
    switched && switched.id === selectedId
      ? switched.switches
      : thread.kind === 'ready'
        ? thread.thread.conversation.toolSwitches
        : undefined;

  const keyMissing =
    settings.settings?.provider === 'gemini' && secrets.status !== null && !secrets.status.geminiApiKey;
  const summary = list.kind === 'ready' ? list.conversations.find((c) => c.id === selectedId) : undefined;
  // The list is live (renames from anywhere); the thread's copy is as of its last snapshot.
  const title = summary?.title ?? (thread.kind === 'ready' ? thread.thread.conversation.title : '');

  return (
    <section className="view chat-view" data-testid="chat-view">
      <div className={`chat-layout${settingsOpen ? ' with-settings' : ''}${listOpen ? ' with-list' : ''}`}>
        <div className="conversation-pane" id="conversation-pane" ref={listPane}>
          <ConversationList
            state={list}
            selectedId={selectedId}
            waiting={elsewhere}
            onSelect={(id) => {
              setSelectedId(id);
              setListOpen(false);
            }}
            onNew={onNew}
            creating={creating}
          />
        </div>
        <div className="chat-main">
          <ChatHeader
            conversationId={selectedId}
            title={title}
            settings={settings.settings}
            onOpenSettings={() => setSettingsOpen((o) => !o)}
            listOpen={listOpen}
            onToggleList={() => setListOpen((o) => !o)}
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
          {noServers && servers.kind === 'ready' && (
            <NoServersBanner configured={servers.servers.length} onGo={go} />
          )}
          {!noServers && servers.kind === 'ready' && (
            <FailedServersNote servers={servers.servers} onOpenServers={() => onGo?.('servers')} />
          )}
          {checklist && (
            <div className="thread thread-note">
              <FirstRunChecklist
                steps={checklist}
                onGo={go}
                onDismiss={() =>
                  void settings.update({ checklistDismissed: true }).then((e) => e && setError(e))
                }
              />
            </div>
          )}
          {thread.kind === 'ready' && !checklist && (
            <MessageActionsContext.Provider value={actions}>
              <AppViewConversation.Provider value={thread.thread.conversation.id}>
                <MessageThread thread={thread.thread} running={running} approvals={here} actions={actions} />
              </AppViewConversation.Provider>
            </MessageActionsContext.Provider>
          )}
          {thread.kind === 'loading' && <div className="thread muted thread-note">Loading…</div>}
          {thread.kind === 'error' && (
            <div className="thread thread-note">
              <ErrorBox error={thread.error} />
            </div>
          )}
          {thread.kind === 'none' && !checklist && (
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
            // Right after "New chat", what is typed belongs to the conversation being created.
            draftKey={creating ? BEING_CREATED : (selectedId ?? NO_CONVERSATION)}
            running={running}
            stopping={running && stoppingRun === activeRun}
            // Sending needs only the conversation's id, not its loaded thread: a message typed
            // right after "New chat" goes out even while the empty thread is still loading.
            disabled={thread.kind === 'error'}
            onSend={onSend}
            onStop={onStop}
            extra={
              settings.settings &&
              servers.kind === 'ready' && (
                <>
                  <ToolsChip
                    conversationId={selectedId}
                    switches={switches}
                    settings={settings.settings}
                    servers={servers.servers}
                    tools={catalog.kind === 'ready' ? catalog.catalog.tools : []}
                    ensureConversation={() => target(selectedId)}
                    onSwitches={(id, next) => setSwitched({ id, switches: next })}
                  />
                  <ModelPicker
                    settings={settings.settings}
                    update={settings.update}
                    keySet={
                      secrets.status?.[
                        settings.settings.provider === 'openai' ? 'openaiApiKey' : 'geminiApiKey'
                      ] === true
                    }
                  />
                </>
              )
            }
          />
        </div>
        {settingsOpen && (
          <Suspense fallback={<aside className="settings-panel panel muted">Loading…</aside>}>
            <SettingsPanel
              handle={settings}
              secrets={secrets.status}
              onSecrets={secrets.setStatus}
              catalogKey={catalog.kind === 'ready' ? String(catalog.catalog.tools.length) : ''}
              onClose={() => setSettingsOpen(false)}
              {...(thread.kind === 'ready'
                ? {
                    conversation: {
                      id: thread.thread.conversation.id,
                      modelSettings: thread.thread.conversation.modelSettings,
                    },
                  }
                : {})}
            />
          </Suspense>
        )}
      </div>
    </section>
  );
}

/** Focus the element `selector` names once it is in the page (a lazily loaded panel takes a moment). */
function focusWhenShown(selector: string, tries = 60): void {
  const el = document.querySelector<HTMLElement>(selector);
  if (el) el.focus();
  else if (tries > 0) requestAnimationFrame(() => focusWhenShown(selector, tries - 1));
}

/** Approvals for the open conversation, counts for the others, and those tied to none we know (views' own aside). */
function splitPending(pending: PendingRequest[], selectedId: string | null, list: ConversationsState) {
  const known = new Set(list.kind === 'ready' ? list.conversations.map((c) => c.id) : []);
  const here: ToolApprovalRequest[] = [];
  const unassigned: ToolApprovalRequest[] = [];
  const elsewhere = new Map<string, number>();
  for (const p of pending) {
    if (p.kind !== 'tool-approval') continue;
    // A view's own request shows with that view (under its tool card), never loose in a thread.
    if (p.fromView) continue;
    if (p.conversationId !== undefined && p.conversationId === selectedId) here.push(p);
    else if (p.conversationId !== undefined && known.has(p.conversationId))
      elsewhere.set(p.conversationId, (elsewhere.get(p.conversationId) ?? 0) + 1);
    else unassigned.push(p);
  }
  return { here, elsewhere, unassigned };
}
