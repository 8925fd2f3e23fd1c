import { lazy, Suspense, useCallback, useState, type ReactNode } from 'react';
import { useLinkStatus } from './host/host-context.js';
import { ConnectionBanner } from './components/connection-banner.js';
import { DeepLinkHost } from './components/install-preview/deep-link-host.js';
import { Nav, type ViewName } from './components/nav.js';
import { useChatHandoffNavigation } from './hooks/use-chat-handoff-navigation.js';
import { ViewActiveContext } from './components/view-active.js';
import type { PendingRequest } from '../shared/domain/pending.js';
import { usePending } from './hooks/use-pending.js';
import { useAppShortcuts } from './hooks/use-app-shortcuts.js';
import { useHostInfo } from './hooks/use-host-info.js';
import { useServers } from './hooks/use-servers.js';
import { ChatView } from './views/chat/chat-view.js';
import {
  AuditView,
  LazySlot,
  PermissionsView,
  preloadView,
  PromptsView,
  RegistryView,
  RequestsView,
  ResourcesView,
  RootsView,
  ServersView,
  SettingsView,
  ToolsView,
} from './lazy/lazy-views.js';
import type { AddOutcome } from './views/roots/folder-drop.js';
import { useWindowFolderDrop } from './views/roots/use-window-drop.js';
import { BundleDialogSlot } from './components/bundles/bundle-dialog-slot.js';
import { useBundleOffers } from './hooks/use-bundle-offers.js';

// The palette's code (cmdk) loads the first time someone opens it.
const CommandPalette = lazy(() =>
  import('./components/command-palette.js').then((m) => ({ default: m.CommandPalette })),
);

/**
 * The shell: navigation, the connection banner, and the views (Chat first). A view mounts the
 * first time it is shown (its code loads then) and stays mounted while hidden, so a running
 * tool call or a half-filled form survives switching away.
 */
export function App() {
  const [view, setViewState] = useState<ViewName>('chat');
  const [visited, setVisited] = useState<ReadonlySet<ViewName>>(() => new Set(['chat']));
  const [rootsOutcome, setRootsOutcome] = useState<AddOutcome | null>(null);
  const link = useLinkStatus();
  const setView = useCallback((next: ViewName) => {
    setViewState(next);
    setVisited((v) => (v.has(next) ? v : new Set(v).add(next)));
  }, []);
  // A folder dropped anywhere on the window is shared; the Folders view shows what happened.
  const onDropped = useCallback(
    (o: AddOutcome) => {
      setRootsOutcome(o);
      setView('roots');
    },
    [setView],
  );
  const dragging = useWindowFolderDrop(onDropped);
  // A .mcpb dropped on the window or opened from the file manager: the install dialog.
  useBundleOffers();
  const [paletteOpen, setPaletteOpen] = useState(false);
  const desktop = useHostInfo()?.mode === 'electron';
  useAppShortcuts({ setView, openPalette: () => setPaletteOpen(true), desktop });
  // The quick-ask window's "open in main window": ChatView selects the conversation, then we show it.
  const showChat = useCallback(() => setView('chat'), [setView]);
  // "Use in chat" / "Attach to chat" in another view: show the composer they filled.
  useChatHandoffNavigation(showChat);
  // The chat's first-run buttons: another view, or the Servers view with its Add form open.
  const [addServer, setAddServer] = useState(0);
  const [importServers, setImportServers] = useState(0);
  const goFromChat = useCallback(
    (next: ViewName, intent?: 'add-server' | 'import') => {
      if (intent === 'add-server') setAddServer((n) => n + 1);
      if (intent === 'import') setImportServers((n) => n + 1);
      setView(next);
    },
    [setView],
  );
  // The nav badge and the chat's cards read the store's one pending list.
  const pending = usePending();
  // Each waiting request is counted once: where it is answered (a chat's card, or the Requests queue).
  const inChat = pending.filter(waitsInChat).length;
  const badges = { chat: inChat, requests: pending.length - inChat };
  const servers = useServers();
  const failedServers =
    servers.kind === 'ready' ? servers.servers.filter((s) => s.state.kind === 'failed').length : 0;
  // While the host is away the views show its last known state: dim them so nobody trusts it.
  const stale = link.kind === 'waiting' || (link.kind === 'connecting' && link.attempt > 0);
  const slot = (name: ViewName, content: ReactNode) =>
    visited.has(name) && (
      <div hidden={view !== name} className="view-slot">
        <ViewActiveContext.Provider value={view === name}>
          <LazySlot>{content}</LazySlot>
        </ViewActiveContext.Provider>
      </div>
    );
  return (
    <div className={dragging ? 'app drop-target' : 'app'}>
      <Nav
        view={view}
        onSelect={setView}
        onPreload={preloadView}
        badges={badges}
        alerts={{
          servers: { count: failedServers, label: failedServers === 1 ? 'server failed' : 'servers failed' },
        }}
      />
      <main className={stale ? 'main stale' : 'main'}>
        <ConnectionBanner />
        <div hidden={view !== 'chat'} className="view-slot">
          <ViewActiveContext.Provider value={view === 'chat'}>
            <ChatView pending={pending} onShown={showChat} onGo={goFromChat} />
          </ViewActiveContext.Provider>
        </div>
        {slot('requests', <RequestsView pending={pending} active={view === 'requests'} />)}
        {slot(
          'servers',
          <ServersView addSignal={addServer} importSignal={importServers} onBackToChat={showChat} />,
        )}
        {slot('registry', <RegistryView />)}
        {slot('tools', <ToolsView />)}
        {slot('resources', <ResourcesView />)}
        {slot('prompts', <PromptsView />)}
        {slot('roots', <RootsView outcome={rootsOutcome} onOutcome={setRootsOutcome} />)}
        {slot('audit', <AuditView active={view === 'audit'} />)}
        {slot('permissions', <PermissionsView />)}
        {slot('settings', <SettingsView />)}
      </main>
      <DeepLinkHost />
      <BundleDialogSlot onInstalled={() => setView('servers')} />
      {paletteOpen && (
        <Suspense fallback={null}>
          <CommandPalette onClose={() => setPaletteOpen(false)} onNavigate={setView} />
        </Suspense>
      )}
    </div>
  );
}

/** What a chat waits on: its approvals, and what servers ask while a chat's tool call runs. */
function waitsInChat(p: PendingRequest): boolean {
  return p.kind === 'tool-approval' || p.origin?.conversationId !== undefined;
}
