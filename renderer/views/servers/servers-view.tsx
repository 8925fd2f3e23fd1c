import { useState } from 'react';
import type { ServerSummary } from '../../../shared/domain/server-state.js';
import { ErrorBox } from '../../components/error-box.js';
import { useServers } from '../../hooks/use-servers.js';
import { useViewTarget } from '../../hooks/use-view-target.js';
import { PickBundleButton } from './bundle-actions.js';
import { ExportPanel } from './export-panel.js';
import { HostImportView } from './host-import.js';
import { ImportPanel } from './import-panel.js';
import { ServerDetails } from './server-details.js';
import { ServerForm } from './server-form.js';
import { ServerRow } from './server-row.js';

/** What the right-hand side shows. */
type Side =
  | { kind: 'details'; id: string | null }
  | { kind: 'add' }
  | { kind: 'edit'; id: string }
  | { kind: 'import' }
  | { kind: 'export'; ids: string[] | 'all' };

/**
 * Configured servers with live state, and the forms to add, edit, import and export them.
 * `addSignal` / `importSignal`: each new value (the chat's first-run buttons) opens the Add form
 * or the Import from other apps view.
 */
export function ServersView({
  addSignal = 0,
  importSignal = 0,
  onBackToChat,
}: {
  addSignal?: number;
  importSignal?: number;
  /** Shows Chat: offered once a server was added or imported. */
  onBackToChat?: () => void;
} = {}) {
  const servers = useServers();
  const [side, setSide] = useState<Side>({ kind: 'details', id: null });
  // The server the Add form just saved: its details offer the way back to the chat.
  const [added, setAdded] = useState<string | null>(null);
  const [importing, setImporting] = useState(false);
  const [seenImport, setSeenImport] = useState(0);
  if (importSignal !== seenImport) {
    setSeenImport(importSignal);
    if (importSignal > 0) setImporting(true);
  }
  useViewTarget('servers', (t) => setSide({ kind: 'details', id: t.serverId }));
  // Each new `addSignal` (the chat's "Add server") opens the Add form, on first mount too.
  const [seenAdd, setSeenAdd] = useState(0);
  if (addSignal !== seenAdd) {
    setSeenAdd(addSignal);
    if (addSignal > 0) setSide({ kind: 'add' });
  }
  const list = servers.kind === 'ready' ? servers.servers : [];
  const find = (id: string | null): ServerSummary | undefined => list.find((s) => s.id === id);

  if (importing)
    return (
      <HostImportView
        onClose={() => setImporting(false)}
        onEdit={(id) => {
          setImporting(false);
          setSide({ kind: 'edit', id });
        }}
        // The import is over: coming back to Servers later shows the list, not this finished page.
        {...(onBackToChat
          ? {
              onBackToChat: () => {
                setImporting(false);
                onBackToChat();
              },
            }
          : {})}
      />
    );
  return (
    <section className="view servers-view" data-testid="servers-view">
      <header className="view-header">
        <h1>Servers</h1>
        <div className="header-actions">
          <button
            type="button"
            className="primary"
            onClick={() => setSide({ kind: 'add' })}
            data-testid="add-server"
          >
            Add server
          </button>
          <button type="button" onClick={() => setImporting(true)} data-testid="import-hosts">
            Import from other apps…
          </button>
          <button type="button" onClick={() => setSide({ kind: 'import' })} data-testid="import-json">
            Import JSON
          </button>
          <PickBundleButton label="Install bundle…" testId="install-bundle" />
          <button
            type="button"
            onClick={() => setSide({ kind: 'export', ids: 'all' })}
            disabled={list.length === 0}
            data-testid="export-all"
          >
            Export all
          </button>
        </div>
      </header>
      <div className="split">
        <div className="split-main">
          {servers.kind === 'loading' && <p className="muted">Loading servers…</p>}
          {servers.kind === 'error' && <ErrorBox error={servers.error} />}
          {servers.kind === 'ready' && list.length === 0 && (
            <div className="empty" data-testid="servers-empty">
              <p>No servers yet.</p>
              <p className="muted">
                Add one with its command or URL, import the ones you set up in other apps, or paste a
                claude_desktop_config.json.
              </p>
            </div>
          )}
          <ul className="server-list" data-testid="server-list">
            {list.map((s) => (
              <ServerRow
                key={s.id}
                server={s}
                selected={side.kind === 'details' && side.id === s.id}
                onSelect={() => setSide({ kind: 'details', id: s.id })}
                onEdit={() => setSide({ kind: 'edit', id: s.id })}
                onRemoved={() => setSide({ kind: 'details', id: null })}
              />
            ))}
          </ul>
        </div>
        <aside className="split-side">
          <SidePanel
            side={side}
            find={find}
            setSide={setSide}
            added={added}
            onAdded={setAdded}
            {...(onBackToChat ? { onBackToChat } : {})}
          />
        </aside>
      </div>
    </section>
  );
}

function SidePanel({
  side,
  find,
  setSide,
  added,
  onAdded,
  onBackToChat,
}: {
  side: Side;
  find: (id: string | null) => ServerSummary | undefined;
  setSide: (s: Side) => void;
  added: string | null;
  onAdded: (id: string | null) => void;
  onBackToChat?: () => void;
}) {
  const showDetails = (s: ServerSummary) => setSide({ kind: 'details', id: s.id });
  const close = () => setSide({ kind: 'details', id: null });
  switch (side.kind) {
    case 'add':
      return (
        <ServerForm
          mode={{ kind: 'add' }}
          onSaved={(s) => {
            onAdded(s.id);
            showDetails(s);
          }}
          onCancel={close}
        />
      );
    case 'edit': {
      const server = find(side.id);
      return server ? (
        <ServerForm
          key={server.id}
          mode={{ kind: 'edit', server }}
          onSaved={showDetails}
          onCancel={() => setSide({ kind: 'details', id: server.id })}
        />
      ) : null;
    }
    case 'import':
      return <ImportPanel onClose={close} />;
    case 'export':
      return <ExportPanel key={String(side.ids)} ids={side.ids} onClose={close} />;
    case 'details': {
      const server = find(side.id);
      return server ? (
        <>
          {added === server.id && onBackToChat && (
            <div className="banner ok added-note" role="status" data-testid="server-added">
              {server.id} is added. Its tools are offered in the chat.
              <button
                type="button"
                className="small primary"
                onClick={onBackToChat}
                data-testid="back-to-chat"
              >
                Back to chat
              </button>
            </div>
          )}
          <ServerDetails
            key={server.id}
            server={server}
            onExport={() => setSide({ kind: 'export', ids: [server.id] })}
          />
        </>
      ) : (
        <div className="panel placeholder muted">Select a server to see its log and protocol trace.</div>
      );
    }
  }
}
