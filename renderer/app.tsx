import { useCallback, useState } from 'react';
import { useLinkStatus } from './host/host-context.js';
import { ConnectionBanner } from './components/connection-banner.js';
import { Nav, type ViewName } from './components/nav.js';
import { usePending } from './hooks/use-pending.js';
import { AuditView } from './views/audit/audit-view.js';
import { ChatView } from './views/chat/chat-view.js';
import { PromptsView } from './views/prompts/prompts-view.js';
import { RequestsView } from './views/requests/requests-view.js';
import { ResourcesView } from './views/resources/resources-view.js';
import type { AddOutcome } from './views/roots/folder-drop.js';
import { RootsView } from './views/roots/roots-view.js';
import { useWindowFolderDrop } from './views/roots/use-window-drop.js';
import { ServersView } from './views/servers/servers-view.js';
import { ToolsView } from './views/tools/tools-view.js';

/**
 * The shell: navigation, the connection banner, and the views (Chat first). Views stay mounted
 * while hidden so a running tool call or a half-filled form survives switching away.
 */
export function App() {
  const [view, setView] = useState<ViewName>('chat');
  const [rootsOutcome, setRootsOutcome] = useState<AddOutcome | null>(null);
  const link = useLinkStatus();
  // A folder dropped anywhere on the window is shared; the Folders view shows what happened.
  const onDropped = useCallback((o: AddOutcome) => {
    setRootsOutcome(o);
    setView('roots');
  }, []);
  const dragging = useWindowFolderDrop(onDropped);
  // The quick-ask window's "open in main window": ChatView selects the conversation, then we show it.
  const showChat = useCallback(() => setView('chat'), []);
  // The nav badge and the chat's cards read the store's one pending list.
  const pending = usePending();
  // While the host is away the views show its last known state: dim them so nobody trusts it.
  const stale = link.kind === 'waiting' || (link.kind === 'connecting' && link.attempt > 0);
  return (
    <div className={dragging ? 'app drop-target' : 'app'}>
      <Nav
        view={view}
        onSelect={setView}
        badges={{ chat: pending.filter((p) => p.kind === 'tool-approval').length, requests: pending.length }}
      />
      <main className={stale ? 'main stale' : 'main'}>
        <ConnectionBanner />
        <div hidden={view !== 'chat'} className="view-slot">
          <ChatView pending={pending} onShown={showChat} />
        </div>
        <div hidden={view !== 'requests'} className="view-slot">
          <RequestsView pending={pending} active={view === 'requests'} />
        </div>
        <div hidden={view !== 'servers'} className="view-slot">
          <ServersView />
        </div>
        <div hidden={view !== 'tools'} className="view-slot">
          <ToolsView />
        </div>
        <div hidden={view !== 'resources'} className="view-slot">
          <ResourcesView />
        </div>
        <div hidden={view !== 'prompts'} className="view-slot">
          <PromptsView />
        </div>
        <div hidden={view !== 'roots'} className="view-slot">
          <RootsView outcome={rootsOutcome} onOutcome={setRootsOutcome} />
        </div>
        <div hidden={view !== 'audit'} className="view-slot">
          <AuditView active={view === 'audit'} />
        </div>
      </main>
    </div>
  );
}
