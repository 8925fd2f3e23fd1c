import { useMemo, useState } from 'react';
import { ErrorBox } from '../../components/error-box.js';
import { useCatalog } from '../../hooks/use-catalog.js';
import { useLastSeen } from '../../hooks/use-last-seen.js';
import { useViewTarget } from '../../hooks/use-view-target.js';
import { groupByServer } from '../../lib/group-by-server.js';
import { useChatSettings } from '../../hooks/use-chat-settings.js';
import { ToolDetail } from './tool-detail.js';
import { ToolList, type ToolSelection } from './tool-list.js';
import { rankedGroups } from './ranked-groups.js';
import { useToolSearch } from './use-tool-search.js';

/**
 * Every tool of every connected server, searchable, each callable through a generated form. The
 * search ranks as the chat's tool search does, and says why each tool is a hit.
 */
export function ToolsView() {
  const catalog = useCatalog();
  const chatSettings = useChatSettings();
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<ToolSelection>(null);
  // A tool opened from the command palette: the list scrolls to it and its form takes the focus.
  const [revealed, setRevealed] = useState<{ key: string; n: number } | null>(null);
  useViewTarget('tools', (t) => {
    setSelected({ serverId: t.serverId, name: t.name });
    setRevealed((r) => ({ key: `${t.serverId}/${t.name}`, n: (r?.n ?? 0) + 1 }));
  });
  const select = (s: ToolSelection) => {
    setRevealed(null);
    setSelected(s);
  };
  const tools = useMemo(() => (catalog.kind === 'ready' ? catalog.catalog.tools : []), [catalog]);
  // Lower-cased once per catalog, not once per keystroke; NUL keeps a match inside one field.
  const haystacks = useMemo(
    () =>
      tools.map((t) =>
        [t.tool.name, t.tool.title ?? '', t.tool.description ?? '', t.serverId].join('\0').toLowerCase(),
      ),
    [tools],
  );
  const ranked = useToolSearch(query);
  // Literal matches show at once; the host's ranking (the chat's own) follows, explained.
  const { groups, why } = useMemo(() => {
    const q = query.trim().toLowerCase();
    if (!q) return { groups: groupByServer(tools), why: undefined };
    const literal = tools.filter((_, i) => haystacks[i]?.includes(q));
    if (ranked?.query.toLowerCase() !== q) return { groups: groupByServer(literal), why: undefined };
    return rankedGroups(tools, literal, ranked.hits);
  }, [tools, haystacks, query, ranked]);
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
          aria-label="Search tools"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          data-testid="tool-search"
        />
      </header>
      <div className="split">
        {groups.length > 0 ? (
          <ToolList
            groups={groups}
            query={query}
            selected={selected}
            onSelect={select}
            reveal={revealed?.n ?? 0}
            chat={chatSettings}
            {...(why ? { why } : {})}
          />
        ) : (
          <div className="split-main list-column">
            {catalog.kind === 'loading' && <p className="muted">Loading…</p>}
            {catalog.kind === 'error' && <ErrorBox error={catalog.error} />}
            {catalog.kind === 'ready' && tools.length === 0 && (
              <p className="muted">No tools yet: connect a server that offers some.</p>
            )}
            {catalog.kind === 'ready' && tools.length > 0 && (
              <p className="muted">No tool matches “{query}”.</p>
            )}
          </div>
        )}
        <aside className="split-side">
          {current ? (
            <ToolDetail
              key={`${current.serverId}/${current.tool.name}`}
              entry={current}
              offered={live !== undefined}
              focusRequest={revealed?.key === `${current.serverId}/${current.tool.name}` ? revealed.n : 0}
            />
          ) : (
            <div className="panel placeholder muted">Select a tool to call it.</div>
          )}
        </aside>
      </div>
    </section>
  );
}
