import { useMemo, useRef, useState } from 'react';
import type { CatalogResource } from '../../../shared/domain/catalog.js';
import { useEscapeWithin } from '../../hooks/use-escape-within.js';
import { groupByServer, matches } from '../../lib/group-by-server.js';
import { Icon } from '../../components/icons.js';

/** A resource chosen as context for the next message. */
export interface PickedResource {
  serverId: string;
  uri: string;
  name: string;
}

/** Whether `r` is among `picked`. */
export function isPicked(picked: PickedResource[], r: { serverId: string; uri: string }): boolean {
  return picked.some((p) => p.serverId === r.serverId && p.uri === r.uri);
}

/** Every connected server's resources, searchable; clicking one toggles it as an attachment. */
export function ResourcePicker({
  resources,
  picked,
  onToggle,
  onClose,
}: {
  resources: CatalogResource[];
  picked: PickedResource[];
  onToggle: (r: PickedResource) => void;
  onClose: () => void;
}) {
  const [query, setQuery] = useState('');
  const picker = useRef<HTMLDivElement>(null);
  useEscapeWithin(picker, onClose);
  const groups = useMemo(
    () =>
      groupByServer(
        resources.filter((r) =>
          matches(query, r.resource.name, r.resource.title, r.resource.uri, r.serverId),
        ),
      ),
    [resources, query],
  );
  return (
    <div className="composer-popover resource-picker" data-testid="resource-picker" ref={picker}>
      <div className="popover-bar">
        <input
          type="search"
          // eslint-disable-next-line jsx-a11y/no-autofocus -- the person just opened this picker to search it
          autoFocus
          placeholder="Search resources"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          data-testid="resource-search"
        />
        <button
          type="button"
          className="small"
          onClick={onClose}
          data-testid="resource-picker-close"
          data-esc-close
        >
          Done
        </button>
      </div>
      <div className="popover-scroll">
        {resources.length === 0 && (
          <p className="muted popover-empty">No resources: connected servers offer none.</p>
        )}
        {resources.length > 0 && groups.length === 0 && (
          <p className="muted popover-empty">No resource matches “{query}”.</p>
        )}
        {groups.map(([serverId, items]) => (
          <div key={serverId} className="group">
            <h3 className="group-title">{serverId}</h3>
            <ul className="item-list">
              {items.map(({ resource }) => {
                const on = isPicked(picked, { serverId, uri: resource.uri });
                return (
                  <li key={resource.uri}>
                    <button
                      type="button"
                      className={`item${on ? ' selected' : ''}`}
                      aria-pressed={on}
                      onClick={() =>
                        onToggle({ serverId, uri: resource.uri, name: resource.title ?? resource.name })
                      }
                      data-testid="resource-option"
                      data-uri={resource.uri}
                      data-server={serverId}
                    >
                      <span className="item-name">
                        {on && <Icon name="check" size={14} />}
                        {resource.title ?? resource.name}
                      </span>
                      <span className="item-desc mono">{resource.uri}</span>
                    </button>
                  </li>
                );
              })}
            </ul>
          </div>
        ))}
      </div>
    </div>
  );
}
