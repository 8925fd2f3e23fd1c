import { useVirtualizer } from '@tanstack/react-virtual';
import { AppWindow } from 'lucide-react';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import type { CatalogTool } from '../../../shared/domain/catalog.js';
import { toolUiOf } from '../../../shared/domain/mcp-apps.js';
import type { SettingsHandle } from '../../hooks/use-chat-settings.js';
import { ToolBadges } from '../../components/tool-badges.js';
import { ToolChangeBadge } from '../../components/tool-change-badge.js';
import { WarningsBadge } from '../../components/tool-warnings/tool-warnings.js';
import { ChatOfferToggle } from './chat-offer-toggle.js';

/** Which tool is open in the detail pane. */
export type ToolSelection = { serverId: string; name: string } | null;

/** One line of the list: a server's heading or one of its tools. */
type Row =
  { kind: 'group'; serverId: string; count: number } | { kind: 'tool'; serverId: string; entry: CatalogTool };

const ESTIMATED_ROW = 52;

/**
 * The tools, grouped by server, virtualised: thousands of tools keep a few dozen rows in the
 * DOM, so typing in the search box repaints at once. The scroll container is the list itself;
 * the selected row is always rendered, so keyboard focus on it survives scrolling away.
 */
export function ToolList({
  groups,
  query,
  selected,
  onSelect,
  chat,
  why,
  reveal = 0,
}: {
  groups: [string, CatalogTool[]][];
  /** Changes when the selection came from outside (the palette): the list scrolls it into view. */
  reveal?: number;
  /** Why each `server/tool` is a search hit (absent: not searching). */
  why?: ReadonlyMap<string, string>;
  /** The search text: a new search starts at the top of its results. */
  query: string;
  selected: ToolSelection;
  onSelect: (s: ToolSelection) => void;
  chat: SettingsHandle;
}) {
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const rows = useMemo(() => flatten(groups), [groups]);
  useLayoutEffect(() => {
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
  }, [query]);
  const selectedIndex = selected
    ? rows.findIndex(
        (r) => r.kind === 'tool' && r.serverId === selected.serverId && r.entry.tool.name === selected.name,
      )
    : -1;
  // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler here; rows re-render with the virtualiser
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW,
    getItemKey: (i) => rowKey(rows[i]),
    overscan: 8,
    rangeExtractor: useCallback(
      (range: { startIndex: number; endIndex: number; overscan: number; count: number }) => {
        const start = Math.max(0, range.startIndex - range.overscan);
        const end = Math.min(range.count - 1, range.endIndex + range.overscan);
        const indexes: number[] = [];
        if (selectedIndex >= 0 && selectedIndex < start) indexes.push(selectedIndex);
        for (let i = start; i <= end; i++) indexes.push(i);
        if (selectedIndex > end && selectedIndex < range.count) indexes.push(selectedIndex);
        return indexes;
      },
      [selectedIndex],
    ),
  });

  // Scrolled once per reveal, as soon as the selected tool is in the list (the catalog may still load).
  const revealedFor = useRef(0);
  useEffect(() => {
    if (reveal === 0 || revealedFor.current === reveal || selectedIndex < 0) return;
    revealedFor.current = reveal;
    virtualizer.scrollToIndex(selectedIndex, { align: 'center' });
  }, [reveal, selectedIndex, virtualizer]);

  return (
    <div className="split-main list-column tool-list-scroller" ref={scrollRef} data-testid="tool-list">
      <div
        className="tool-list"
        role="list"
        aria-label="Tools"
        style={{ height: virtualizer.getTotalSize() }}
      >
        {virtualizer.getVirtualItems().map((v) => {
          const row = rows[v.index];
          return (
            <div
              key={v.key}
              ref={virtualizer.measureElement}
              data-index={v.index}
              className="tool-list-row"
              role="listitem"
              aria-posinset={v.index + 1}
              aria-setsize={rows.length}
              style={{ transform: `translateY(${v.start}px)` }}
            >
              {row.kind === 'group' ? (
                <GroupHeading serverId={row.serverId} count={row.count} chat={chat} />
              ) : (
                <ToolRow
                  serverId={row.serverId}
                  entry={row.entry}
                  why={why?.get(`${row.serverId}/${row.entry.tool.name}`)}
                  isSelected={v.index === selectedIndex}
                  onSelect={onSelect}
                  chat={chat}
                />
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}

function GroupHeading({ serverId, count, chat }: { serverId: string; count: number; chat: SettingsHandle }) {
  return (
    <h3 className="group-title" data-testid={`tool-group-${serverId}`}>
      {serverId} <span className="muted">{count}</span>
      <ChatOfferToggle handle={chat} serverId={serverId} />
    </h3>
  );
}

const ToolRow = memo(function ToolRow(props: {
  serverId: string;
  entry: CatalogTool;
  isSelected: boolean;
  onSelect: (s: ToolSelection) => void;
  chat: SettingsHandle;
  why: string | undefined;
}) {
  const { serverId, entry, isSelected, onSelect, chat, why } = props;
  const { tool, enabled } = entry;
  return (
    <div className="tool-row">
      <button
        type="button"
        className={`item${isSelected ? ' selected' : ''}${enabled ? '' : ' off'}`}
        onClick={() => onSelect({ serverId, name: tool.name })}
        aria-current={isSelected ? 'true' : undefined}
        data-testid={`tool-item-${serverId}-${tool.name}`}
      >
        <span className="item-name">{tool.title ?? tool.name}</span>
        <ToolBadges annotations={tool.annotations} compact />
        <ToolChangeBadge trust={entry.trust} testId={`tool-changed-${serverId}-${tool.name}`} />
        <WarningsBadge warnings={entry.trust?.warnings ?? []} />
        {toolUiOf(tool).resourceUri && (
          <span
            className="badge subtle"
            title="Calling it shows an interactive view (an MCP App)"
            data-testid="tool-view-badge"
          >
            <AppWindow size={12} aria-hidden="true" className="icon" /> view
          </span>
        )}
        {tool.description && <span className="item-desc">{tool.description}</span>}
        {why && (
          <span className="item-why muted small-print" data-testid={`tool-why-${serverId}-${tool.name}`}>
            {why}
          </span>
        )}
      </button>
      <ChatOfferToggle handle={chat} serverId={serverId} tool={tool.name} />
    </div>
  );
});

function flatten(groups: [string, CatalogTool[]][]): Row[] {
  const rows: Row[] = [];
  for (const [serverId, items] of groups) {
    rows.push({ kind: 'group', serverId, count: items.length });
    for (const entry of items) rows.push({ kind: 'tool', serverId, entry });
  }
  return rows;
}

function rowKey(row: Row | undefined): string {
  if (!row) return '';
  return row.kind === 'group' ? `g:${row.serverId}` : `t:${row.serverId}/${row.entry.tool.name}`;
}
