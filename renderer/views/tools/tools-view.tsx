import { useMemo, useState } from 'react';
import type { CatalogTool } from '../../../shared/domain/catalog.js';
import { ErrorBox } from '../../components/error-box.js';
import { useCatalog } from '../../hooks/use-catalog.js';
import { useLastSeen } from '../../hooks/use-last-seen.js';
import { groupByServer, matches } from '../../lib/group-by-server.js';
import { useChatSettings, type SettingsHandle } from '../../hooks/use-chat-settings.js';
import { ChatOfferToggle } from './chat-offer-toggle.js';
import { ToolBadges } from '../../components/tool-badges.js';
import { ToolDetail } from './tool-detail.js';

type Selection = { serverId: string; name: string } | null;

/** Every tool of every connected server, searchable, each callable through a generated form. */
export function ToolsView() {
  const catalog = useCatalog();
  const chatSettings = useChatSettings();
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<Selection>(null);
  const tools = useMemo(() => (catalog.kind === 'ready' ? catalog.catalog.tools : []), [catalog]);
  const groups = useMemo(
    () =>
      groupByServer(
        tools.filter((t) => matches(query, t.tool.name, t.tool.title, t.tool.description, t.serverId)),
      ),
    [tools, query],
  );
  const live = selected
    ? tools.find((t) => t.serverId === selected.serverId && t.tool.name === selected.name)
    : undefined;
  const current = useLastSeen(selected ? `${selected.serverId}/${selected.name}` : null, live);

  return (
    <section className="view tools-view" data-testid="tools-view">
      <header className="view-header">
        <h1>Tools</h1>
        <input
          type="search"
          className="search"
          placeholder="Search tools"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          data-testid="tool-search"
        />
      </header>
      <div className="split">
        <div className="split-main list-column">
          {catalog.kind === 'loading' && <p className="muted">Loading…</p>}
          {catalog.kind === 'error' && <ErrorBox error={catalog.error} />}
          {catalog.kind === 'ready' && tools.length === 0 && (
            <p className="muted">No tools yet: connect a server that offers some.</p>
          )}
          {catalog.kind === 'ready' && tools.length > 0 && groups.length === 0 && (
            <p className="muted">No tool matches “{query}”.</p>
          )}
          {groups.map(([serverId, items]) => (
            <ToolGroup
              key={serverId}
              serverId={serverId}
              items={items}
              selected={selected}
              onSelect={setSelected}
              chat={chatSettings}
            />
          ))}
        </div>
        <aside className="split-side">
          {current ? (
            <ToolDetail
              key={`${current.serverId}/${current.tool.name}`}
              entry={current}
              offered={live !== undefined}
            />
          ) : (
            <div className="panel placeholder muted">Select a tool to call it.</div>
          )}
        </aside>
      </div>
    </section>
  );
}

function ToolGroup(props: {
  serverId: string;
  items: CatalogTool[];
  selected: Selection;
  onSelect: (s: Selection) => void;
  chat: SettingsHandle;
}) {
  const { serverId, items, selected, onSelect, chat } = props;
  return (
    <div className="group" data-testid={`tool-group-${serverId}`}>
      <h3 className="group-title">
        {serverId} <span className="muted">{items.length}</span>
        <ChatOfferToggle handle={chat} serverId={serverId} />
      </h3>
      <ul className="item-list">
        {items.map(({ tool, enabled }) => {
          const isSelected = selected?.serverId === serverId && selected.name === tool.name;
          return (
            <li key={tool.name} className="tool-row">
              <button
                type="button"
                className={`item${isSelected ? ' selected' : ''}${enabled ? '' : ' off'}`}
                onClick={() => onSelect({ serverId, name: tool.name })}
                data-testid={`tool-item-${serverId}-${tool.name}`}
              >
                <span className="item-name">{tool.title ?? tool.name}</span>
                <ToolBadges annotations={tool.annotations} compact />
                {tool.description && <span className="item-desc">{tool.description}</span>}
              </button>
              <ChatOfferToggle handle={chat} serverId={serverId} tool={tool.name} />
            </li>
          );
        })}
      </ul>
    </div>
  );
}
