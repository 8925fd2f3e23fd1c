import { useMemo, useState } from 'react';
import type { CatalogResource, CatalogTemplate } from '../../../shared/domain/catalog.js';
import { CatalogSplitView } from '../../components/catalog-split-view.js';
import { useCatalog } from '../../hooks/use-catalog.js';
import { useLastSeen } from '../../hooks/use-last-seen.js';
import { useServersWith } from '../../hooks/use-server-capabilities.js';
import { useServers } from '../../hooks/use-servers.js';
import { groupByServer, matches } from '../../lib/group-by-server.js';
import { ResourceDetail } from './resource-detail.js';
import { TemplateDetail } from './template-detail.js';

type Selection =
  | { kind: 'resource'; serverId: string; uri: string }
  | { kind: 'template'; serverId: string; uriTemplate: string }
  | null;

type Item = { kind: 'resource'; entry: CatalogResource } | { kind: 'template'; entry: CatalogTemplate };

/** Resources and resource templates of every connected server. */
export function ResourcesView() {
  const catalog = useCatalog();
  const completers = useServersWith(useServers(), 'completions');
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<Selection>(null);
  const snapshot = catalog.kind === 'ready' ? catalog.catalog : null;

  const items = useMemo<(Item & { serverId: string })[]>(() => {
    if (!snapshot) return [];
    const resources = snapshot.resources
      .filter((r) =>
        matches(query, r.resource.name, r.resource.title, r.resource.uri, r.resource.description),
      )
      .map((entry) => ({ kind: 'resource' as const, entry, serverId: entry.serverId }));
    const templates = snapshot.templates
      .filter((t) =>
        matches(query, t.template.name, t.template.title, t.template.uriTemplate, t.template.description),
      )
      .map((entry) => ({ kind: 'template' as const, entry, serverId: entry.serverId }));
    return [...templates, ...resources];
  }, [snapshot, query]);
  const groups = useMemo(() => groupByServer(items), [items]);

  const liveResource =
    selected?.kind === 'resource'
      ? snapshot?.resources.find((x) => x.serverId === selected.serverId && x.resource.uri === selected.uri)
      : undefined;
  const liveTemplate =
    selected?.kind === 'template'
      ? snapshot?.templates.find(
          (x) => x.serverId === selected.serverId && x.template.uriTemplate === selected.uriTemplate,
        )
      : undefined;
  const resource = useLastSeen(
    selected?.kind === 'resource' ? `${selected.serverId}/${selected.uri}` : null,
    liveResource,
  );
  const template = useLastSeen(
    selected?.kind === 'template' ? `${selected.serverId}/${selected.uriTemplate}` : null,
    liveTemplate,
  );

  const detail = resource ? (
    <ResourceDetail
      key={`${resource.serverId}/${resource.resource.uri}`}
      serverId={resource.serverId}
      resource={resource.resource}
    />
  ) : template ? (
    <TemplateDetail
      key={`${template.serverId}/${template.template.uriTemplate}`}
      serverId={template.serverId}
      template={template.template}
      canComplete={completers.has(template.serverId)}
    />
  ) : null;

  return (
    <CatalogSplitView
      view="resources"
      title="Resources"
      search={{ placeholder: 'Search resources', testId: 'resource-search', query, onChange: setQuery }}
      catalog={catalog}
      count={snapshot ? snapshot.resources.length + snapshot.templates.length : 0}
      emptyText="No resources yet."
      groups={groups}
      groupTestIdPrefix="resource-group-"
      renderItem={(item) => (
        <ResourceItem
          key={
            item.kind + (item.kind === 'resource' ? item.entry.resource.uri : item.entry.template.uriTemplate)
          }
          item={item}
          selected={selected}
          onSelect={setSelected}
        />
      )}
      detail={detail}
      hint="Select a resource to read it."
    />
  );
}

function ResourceItem({
  item,
  selected,
  onSelect,
}: {
  item: Item;
  selected: Selection;
  onSelect: (s: Selection) => void;
}) {
  if (item.kind === 'resource') {
    const { serverId, resource } = item.entry;
    const isSel =
      selected?.kind === 'resource' && selected.serverId === serverId && selected.uri === resource.uri;
    return (
      <li>
        <button
          type="button"
          className={`item${isSel ? ' selected' : ''}`}
          onClick={() => onSelect({ kind: 'resource', serverId, uri: resource.uri })}
          data-testid={`resource-item-${serverId}-${resource.name}`}
        >
          <span className="item-name">{resource.title ?? resource.name}</span>
          <span className="item-desc mono">{resource.uri}</span>
        </button>
      </li>
    );
  }
  const { serverId, template } = item.entry;
  const isSel =
    selected?.kind === 'template' &&
    selected.serverId === serverId &&
    selected.uriTemplate === template.uriTemplate;
  return (
    <li>
      <button
        type="button"
        className={`item${isSel ? ' selected' : ''}`}
        onClick={() => onSelect({ kind: 'template', serverId, uriTemplate: template.uriTemplate })}
        data-testid={`template-item-${serverId}-${template.name}`}
      >
        <span className="item-name">
          {template.title ?? template.name} <span className="badge subtle">template</span>
        </span>
        <span className="item-desc mono">{template.uriTemplate}</span>
      </button>
    </li>
  );
}
