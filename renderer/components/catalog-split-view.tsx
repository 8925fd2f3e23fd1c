import type { ReactNode } from 'react';
import type { CatalogState } from '../hooks/use-catalog.js';
import { ErrorBox } from './error-box.js';

/**
 * The frame of a catalog view (Prompts, Resources): a title with a search box, the entries
 * grouped by server on the left, and the chosen one's detail, or a hint, on the right.
 */
export function CatalogSplitView<T>(props: {
  /** Names the view's class and test id (`<view>-view`). */
  view: 'prompts' | 'resources';
  title: string;
  search: { placeholder: string; testId: string; query: string; onChange: (query: string) => void };
  catalog: CatalogState;
  /** How many entries the catalog offers before the search: none shows `emptyText`. */
  count: number;
  emptyText: string;
  groups: [string, T[]][];
  /** Each group's test id is this followed by the server id. */
  groupTestIdPrefix: string;
  /** One keyed `<li>` per entry. */
  renderItem: (item: T, serverId: string) => ReactNode;
  detail: ReactNode;
  hint: string;
}) {
  const { view, title, search, catalog, count, emptyText, groups, groupTestIdPrefix, renderItem } = props;
  return (
    <section className={`view ${view}-view`} data-testid={`${view}-view`}>
      <header className="view-header">
        <h1>{title}</h1>
        <input
          type="search"
          className="search"
          placeholder={search.placeholder}
          value={search.query}
          onChange={(e) => search.onChange(e.target.value)}
          data-testid={search.testId}
        />
      </header>
      <div className="split">
        <div className="split-main list-column">
          {catalog.kind === 'loading' && <p className="muted">Loading…</p>}
          {catalog.kind === 'error' && <ErrorBox error={catalog.error} />}
          {catalog.kind === 'ready' && count === 0 && <p className="muted">{emptyText}</p>}
          {groups.map(([serverId, items]) => (
            <div key={serverId} className="group" data-testid={`${groupTestIdPrefix}${serverId}`}>
              <h3 className="group-title">
                {serverId} <span className="muted">{items.length}</span>
              </h3>
              <ul className="item-list">{items.map((item) => renderItem(item, serverId))}</ul>
            </div>
          ))}
        </div>
        <aside className="split-side">
          {props.detail ?? <div className="panel placeholder muted">{props.hint}</div>}
        </aside>
      </div>
    </section>
  );
}
