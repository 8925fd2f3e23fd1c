import { useMemo, useState } from 'react';
import type { TraceEntry } from '../../../shared/domain/server-state.js';
import { useStickToBottom } from '../../hooks/use-stick-to-bottom.js';
import { formatClock } from '../../lib/format.js';
import { Icon } from '../../components/icons.js';

/** The protocol trace: one row per JSON-RPC message, expandable to its JSON. */
export function TracePanel({ entries }: { entries: TraceEntry[] }) {
  const [filter, setFilter] = useState('');
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const shown = useMemo(() => {
    const q = filter.trim().toLowerCase();
    if (!q) return entries;
    return entries.filter(
      (e) =>
        (e.method ?? '').toLowerCase().includes(q) ||
        String(e.id ?? '').includes(q) ||
        e.json.toLowerCase().includes(q),
    );
  }, [entries, filter]);
  const { ref, onScroll } = useStickToBottom<HTMLDivElement>(shown);

  const toggle = (seq: number) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(seq)) next.delete(seq);
      else next.add(seq);
      return next;
    });

  return (
    <div className="trace">
      <div className="trace-bar">
        <input
          type="search"
          placeholder="Filter by method, id or text"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          data-testid="trace-filter"
        />
        <span className="muted">
          {shown.length} of {entries.length}
        </span>
      </div>
      <div className="trace-panel scroll" ref={ref} onScroll={onScroll} data-testid="server-trace">
        {shown.length === 0 && (
          <p className="muted">{entries.length ? 'No message matches the filter.' : 'No messages yet.'}</p>
        )}
        {shown.map((e) => (
          <div key={e.seq} className={`trace-entry trace-${e.direction}`} data-testid="trace-entry">
            <button
              type="button"
              className="trace-head"
              onClick={() => toggle(e.seq)}
              aria-expanded={open.has(e.seq)}
            >
              <span className="trace-arrow" title={e.direction === 'out' ? 'to server' : 'from server'}>
                <Icon name={e.direction === 'out' ? 'outgoing' : 'incoming'} size={14} />
              </span>
              <span className="log-time">{formatClock(e.at)}</span>
              <span className="trace-method">
                {e.method ?? (e.id !== undefined ? 'response' : 'message')}
              </span>
              {e.id !== undefined && <span className="muted">#{e.id}</span>}
              <span className="trace-preview">
                {e.json.length > 120 ? `${e.json.slice(0, 120)}…` : e.json}
              </span>
            </button>
            {open.has(e.seq) && <pre className="json-view">{prettyJson(e.json)}</pre>}
          </div>
        ))}
      </div>
    </div>
  );
}

/** Trace entries are JSON text, possibly truncated by the host: pretty when it parses. */
function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
