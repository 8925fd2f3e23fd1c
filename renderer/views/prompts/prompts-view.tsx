import { useMemo, useState } from 'react';
import { useViewTarget } from '../../hooks/use-view-target.js';
import { CatalogSplitView } from '../../components/catalog-split-view.js';
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
    <CatalogSplitView
      view="prompts"
      title="Prompts"
      search={{ placeholder: 'Search prompts', testId: 'prompt-search', query, onChange: setQuery }}
      catalog={catalog}
      count={prompts.length}
      emptyText="No prompts yet."
      groups={groups}
      groupTestIdPrefix="prompt-group-"
      renderItem={({ prompt }, serverId) => (
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
      )}
      detail={
        current ? (
          <PromptDetail
            key={`${current.serverId}/${current.prompt.name}`}
            serverId={current.serverId}
            prompt={current.prompt}
            canComplete={completers.has(current.serverId)}
          />
        ) : null
      }
      hint="Select a prompt to fill in its arguments."
    />
  );
}
