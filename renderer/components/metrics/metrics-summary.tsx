import { plural } from '../../lib/format.js';
import { useState } from 'react';
import type { HostError } from '../../../shared/domain/server-state.js';
import { asHostError } from '../../host/errors.js';
import { useMetrics } from '../../hooks/use-metrics.js';
import { ErrorBox } from '../error-box.js';
import { formatBytes, formatCount, formatMs } from './metrics-format.js';

/** Activity's summary: each server's calls, failures and latency, and the models' token usage. */
export function MetricsSummary({ active }: { active: boolean }) {
  const { state, reset } = useMetrics(active);
  const [error, setError] = useState<HostError | null>(null);
  if (state.kind === 'loading') return null;
  if (state.kind === 'error') return <ErrorBox error={state.error} />;
  const { servers, models, since } = state.snapshot;
  const onReset = () => {
    setError(null);
    reset().catch((e: unknown) => setError(asHostError(e)));
  };
  const calls = servers.reduce((n, s) => n + s.calls, 0);
  // Collapsed by default: the log below is what the view is for; the summary is one click away.
  return (
    <details className="metrics-summary panel" data-testid="metrics-summary">
      <summary className="metrics-summary-head" data-testid="metrics-summary-toggle">
        <h2>Summary</h2>
        <span className="muted">
          {plural(calls, 'call', 'calls', formatCount(calls))} since {new Date(since).toLocaleString()}
        </span>
      </summary>
      <div className="metrics-summary-actions">
        <span className="muted">Latency percentiles cover five minutes up to each server’s newest call.</span>
        <button type="button" className="small" onClick={onReset} data-testid="metrics-reset">
          Reset
        </button>
      </div>
      {error && <ErrorBox error={error} />}
      {servers.length === 0 && models.length === 0 ? (
        <p className="muted" data-testid="metrics-summary-empty">
          No tool calls recorded yet.
        </p>
      ) : (
        <table className="audit-table metrics-table">
          <thead>
            <tr>
              <th>Server</th>
              <th>Calls</th>
              <th>Failed</th>
              <th>Timed out</th>
              <th>p50 / p95 / p99</th>
              <th>Sent / received</th>
              <th>Reconnects</th>
            </tr>
          </thead>
          <tbody>
            {servers.map((s) => (
              <tr key={s.serverId} data-testid={`metrics-row-${s.serverId}`}>
                <td>{s.serverId}</td>
                <td>{formatCount(s.calls)}</td>
                <td>{formatCount(s.errors + s.toolErrors)}</td>
                <td>{formatCount(s.timeouts)}</td>
                <td>
                  {formatMs(s.latency.p50Ms)} / {formatMs(s.latency.p95Ms)} / {formatMs(s.latency.p99Ms)}
                </td>
                <td>
                  {formatBytes(s.bytesOut)} / {formatBytes(s.bytesIn)}
                </td>
                <td>{formatCount(s.reconnects)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {models.length > 0 && (
        <ul className="metrics-models" data-testid="metrics-models">
          {models.map((m) => (
            <li key={`${m.provider}/${m.model}`}>
              {m.provider} · {m.model}: {formatCount(m.inputTokens)} input + {formatCount(m.outputTokens)}{' '}
              output tokens over {plural(m.turns, 'turn', 'turns', formatCount(m.turns))}
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}
