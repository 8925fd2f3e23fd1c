import { useMemo, useState } from 'react';
import { useViewTarget } from '../../hooks/use-view-target.js';
import { ErrorBox } from '../../components/error-box.js';
import { useCatalog } from '../../hooks/use-catalog.js';
import { useLastSeen } from '../../hooks/use-last-seen.js';
import { useServersWith } from '../../hooks/use-server-capabilities.js';
import { useServers } from '../../hooks/use-servers.js';
import { groupByServer, matches } from '../../lib/group-by-server.js';
import { PromptDetail } from './prompt-detail.js';

type Selection = { serverId: string; name: string } | null;

/** Prompts of every connected server, each with an argument form and a preview. */
export function PromptsView() {
  const catalog = useCatalog();
  const completers = useServersWith(useServers(), 'completions');
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<Selection>(null);
  useViewTarget('prompts', (t) => setSelected({ serverId: t.serverId, name: t.name }));
  const prompts = useMemo(() => (catalog.kind === 'ready' ? catalog.catalog.prompts : []), [catalog]);
  const groups = useMemo(
    () =>
      groupByServer(
        prompts.filter((p) => matches(query, p.prompt.name, p.prompt.title, p.prompt.description)),
      ),
    [prompts, query],
  );
  const live = selected
    ? prompts.find((p) => p.serverId === selected.serverId && p.prompt.name === selected.name)
    : undefined;
  const current = useLastSeen(selected ? `${selected.serverId}/${selected.name}` : null, live);

  return (
    <section className="view prompts-view" data-testid="prompts-view">
      <header className="view-header">
        <h1>Prompts</h1>
        <input
          type="search"
          className="search"
          placeholder="Search prompts"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          data-testid="prompt-search"
        />
      </header>
      <div className="split">
        <div className="split-main list-column">
          {catalog.kind === 'loading' && <p className="muted">Loading…</p>}
          {catalog.kind === 'error' && <ErrorBox error={catalog.error} />}
          {catalog.kind === 'ready' && prompts.length === 0 && <p className="muted">No prompts yet.</p>}
          {groups.map(([serverId, items]) => (
            <div key={serverId} className="group" data-testid={`prompt-group-${serverId}`}>
              <h3 className="group-title">
                {serverId} <span className="muted">{items.length}</span>
              </h3>
              <ul className="item-list">
                {items.map(({ prompt }) => (
                  <li key={prompt.name}>
                    <button
                      type="button"
                      className={`item${selected?.serverId === serverId && selected.name === prompt.name ? ' selected' : ''}`}
                      onClick={() => setSelected({ serverId, name: prompt.name })}
                      data-testid={`prompt-item-${serverId}-${prompt.name}`}
                    >
                      <span className="item-name">{prompt.title ?? prompt.name}</span>
                      {prompt.description && <span className="item-desc">{prompt.description}</span>}
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
        <aside className="split-side">
          {current ? (
            <PromptDetail
              key={`${current.serverId}/${current.prompt.name}`}
              serverId={current.serverId}
              prompt={current.prompt}
              canComplete={completers.has(current.serverId)}
            />
          ) : (
            <div className="panel placeholder muted">Select a prompt to fill in its arguments.</div>
          )}
        </aside>
      </div>
    </section>
  );
}
