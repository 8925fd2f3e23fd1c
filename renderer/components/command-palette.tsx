import { Command } from 'cmdk';
import { Search } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useCatalog } from '../hooks/use-catalog.js';
import { useConversations } from '../hooks/use-conversations.js';
import { useServers } from '../hooks/use-servers.js';
import { showTarget } from '../hooks/use-view-target.js';
import { paletteItems, type PaletteGroups, type PaletteItem } from './command-palette-items.js';
import { NAV_ITEMS, type ViewName } from './nav.js';

const GROUPS: { key: keyof PaletteGroups; heading: string }[] = [
  { key: 'views', heading: 'Views' },
  { key: 'conversations', heading: 'Conversations' },
  { key: 'servers', heading: 'Servers' },
  { key: 'tools', heading: 'Tools' },
  { key: 'prompts', heading: 'Prompts' },
];

/**
 * The command palette (Ctrl/⌘+K): one search over views, servers, tools, prompts and
 * conversations; Enter opens the highlighted one where it lives. A native modal <dialog>: the
 * page behind is inert (focus cannot leave), Esc closes, and focus goes back to where it was.
 */
export function CommandPalette({
  onClose,
  onNavigate,
}: {
  onClose: () => void;
  onNavigate: (v: ViewName) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const latestClose = useRef(onClose);
  useEffect(() => {
    latestClose.current = onClose;
  });
  const [query, setQuery] = useState('');
  const servers = useServers();
  const catalog = useCatalog();
  const conversations = useConversations();

  useEffect(() => {
    const d = dialog.current;
    const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (d && !d.open) d.showModal();
    // A modal dialog without autofocus focuses itself; the search field is where typing goes.
    d?.querySelector('input')?.focus();
    // A click on the backdrop lands on the dialog element itself, outside its box: close.
    const onBackdrop = (e: MouseEvent) => {
      if (e.target === d) latestClose.current();
    };
    d?.addEventListener('click', onBackdrop);
    return () => {
      d?.removeEventListener('click', onBackdrop);
      if (d?.open) d.close();
      // Back where the person was, unless choosing something moved focus on purpose.
      if (returnTo?.isConnected && (document.activeElement === document.body || !document.activeElement))
        returnTo.focus();
    };
  }, []);

  const groups = useMemo(
    () =>
      paletteItems(
        {
          views: NAV_ITEMS.map(({ id, label }) => ({ id, label })),
          servers: servers.kind === 'ready' ? servers.servers : [],
          catalog: catalog.kind === 'ready' ? catalog.catalog : null,
          conversations: conversations.kind === 'ready' ? conversations.conversations : [],
        },
        query,
      ),
    [servers, catalog, conversations, query],
  );

  const choose = (item: PaletteItem) => {
    onClose();
    onNavigate(item.view);
    if (item.target) showTarget(item.target);
  };

  return (
    <dialog
      ref={dialog}
      className="command-palette"
      aria-label="Command palette"
      data-testid="command-palette"
      onCancel={(e) => {
        // Esc: React decides when the dialog goes, so state and DOM never disagree.
        e.preventDefault();
        onClose();
      }}
    >
      <Command label="Command palette" shouldFilter={false} loop>
        <div className="palette-input">
          <Search size={16} aria-hidden="true" />
          <Command.Input
            value={query}
            onValueChange={setQuery}
            placeholder="Go to a view, server, tool, prompt or conversation…"
            aria-label="Search views, servers, tools, prompts and conversations"
            data-testid="command-palette-input"
          />
        </div>
        <Command.List className="palette-list" data-testid="command-palette-list">
          <Command.Empty className="palette-empty">Nothing matches “{query}”.</Command.Empty>
          {GROUPS.map(({ key, heading }) =>
            groups[key].length === 0 ? null : (
              <Command.Group key={key} heading={heading}>
                {groups[key].map((item) => (
                  <Command.Item
                    key={item.key}
                    value={item.key}
                    onSelect={() => choose(item)}
                    className="palette-item"
                    data-testid={`palette-item-${item.key}`}
                  >
                    <span className="palette-label">{item.label}</span>
                    {item.detail && <span className="palette-detail muted">{item.detail}</span>}
                  </Command.Item>
                ))}
              </Command.Group>
            ),
          )}
        </Command.List>
        <p className="palette-hint muted">↑↓ to move · Enter to open · Esc to close</p>
      </Command>
    </dialog>
  );
}
