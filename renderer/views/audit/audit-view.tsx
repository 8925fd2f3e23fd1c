import { useMemo, useState } from 'react';
import { AUDIT_KINDS, type AuditKind } from '../../../shared/domain/audit.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { ErrorBox } from '../../components/error-box.js';
import { MetricsSummary } from '../../components/metrics/metrics-summary.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';
import { useServers } from '../../hooks/use-servers.js';
import { downloadText } from '../../lib/download.js';
import { AuditRow } from './audit-row.js';
import { EMPTY_FILTERS, toQuery, type AuditFilterForm } from './audit-filters.js';
import { useAudit } from './use-audit.js';

const LIMIT = 500;

/** The activity log: what servers, tools and the person did, newest first, filterable and exportable. */
export function AuditView({ active }: { active: boolean }) {
  const host = useHost();
  const servers = useServers();
  const [filters, setFilters] = useState<AuditFilterForm>(EMPTY_FILTERS);
  const query = useMemo(() => toQuery(filters, LIMIT), [filters]);
  const { state, refresh } = useAudit(query, active);
  const [exportError, setExportError] = useState<HostError | null>(null);
  const records = useMemo(() => (state.kind === 'ready' ? state.records : []), [state]);

  // Servers configured now plus any only seen in the log (removed since): both can be asked about.
  const serverIds = useMemo(() => {
    const ids = new Set<string>(servers.kind === 'ready' ? servers.servers.map((s) => s.id) : []);
    for (const r of records) if (r.serverId) ids.add(r.serverId);
    if (filters.serverId) ids.add(filters.serverId);
    return [...ids].sort();
  }, [servers, records, filters.serverId]);

  const set = <K extends keyof AuditFilterForm>(key: K, value: AuditFilterForm[K]) =>
    setFilters((f) => ({ ...f, [key]: value }));

  const onExport = async () => {
    setExportError(null);
    try {
      // The export has no display limit: it is the whole filtered log.
      const file = await host.invoke('audit.export', { ...query, limit: 10_000 });
      downloadText(file.filename, file.mimeType, file.content);
    } catch (error) {
      setExportError(asHostError(error));
    }
  };

  return (
    <section className="view audit-view" data-testid="audit-view">
      <header className="view-header">
        <h1>Activity</h1>
        <div className="header-actions">
          <button type="button" onClick={refresh} data-testid="audit-refresh">
            Refresh
          </button>
          <button type="button" onClick={() => void onExport()} data-testid="audit-export">
            Export
          </button>
        </div>
      </header>
      <MetricsSummary active={active} />
      <div className="audit-filters" role="group" aria-label="Filters">
        <label>
          Server
          <select
            value={filters.serverId}
            onChange={(e) => set('serverId', e.target.value)}
            data-testid="audit-filter-server"
          >
            <option value="">All servers</option>
            {serverIds.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </label>
        <label>
          Kind
          <select
            value={filters.kind}
            onChange={(e) => set('kind', e.target.value as AuditKind | '')}
            data-testid="audit-filter-kind"
          >
            <option value="">All kinds</option>
            {AUDIT_KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </label>
        <label>
          From
          <input
            type="datetime-local"
            value={filters.from}
            onChange={(e) => set('from', e.target.value)}
            data-testid="audit-filter-from"
          />
        </label>
        <label>
          To
          <input
            type="datetime-local"
            value={filters.to}
            onChange={(e) => set('to', e.target.value)}
            data-testid="audit-filter-to"
          />
        </label>
        {(filters.serverId || filters.kind || filters.from || filters.to) && (
          <button
            type="button"
            className="small"
            onClick={() => setFilters(EMPTY_FILTERS)}
            data-testid="audit-filter-clear"
          >
            Clear
          </button>
        )}
      </div>
      <div className="audit-body scroll">
        {exportError && <ErrorBox error={exportError} testId="audit-export-error" />}
        {state.kind === 'loading' && <p className="muted">Loading…</p>}
        {state.kind === 'error' && <ErrorBox error={state.error} />}
        {state.kind === 'ready' && records.length === 0 && (
          <p className="muted" data-testid="audit-empty">
            No activity recorded for these filters.
          </p>
        )}
        {records.length > 0 && (
          <table className="audit-table">
            <thead>
              <tr>
                <th>Time</th>
                <th>Kind</th>
                <th>Server</th>
                <th>Action</th>
                <th>Details</th>
              </tr>
            </thead>
            <tbody>
              {records.map((r, i) => (
                <AuditRow key={`${r.at}-${r.seq ?? 0}-${i}`} record={r} />
              ))}
            </tbody>
          </table>
        )}
        {records.length >= LIMIT && (
          <p className="muted">Showing the newest {LIMIT}; narrow the filters or export to see more.</p>
        )}
      </div>
    </section>
  );
}
