import { plural } from '../../lib/format.js';
import type { ServerMetrics } from '../../../shared/domain/metrics.js';
import { useMetrics } from '../../hooks/use-metrics.js';
import { ErrorBox } from '../error-box.js';
import { formatBytes, formatCount, formatMs } from './metrics-format.js';

/** One server's counters for Servers › Info: calls by outcome, latency, bytes, connections and their causes. */
export function ServerMetricsPanel({ serverId }: { serverId: string }) {
  const { state } = useMetrics(true);
  if (state.kind === 'loading') return <p className="muted">Loading…</p>;
  if (state.kind === 'error') return <ErrorBox error={state.error} />;
  const m = state.snapshot.servers.find((s) => s.serverId === serverId);
  const since = new Date(state.snapshot.since).toLocaleString();
  if (!m)
    return (
      <p className="muted" data-testid="server-metrics-empty">
        No calls or connections recorded since {since}.
      </p>
    );
  return <MetricsList m={m} since={since} />;
}

function MetricsList({ m, since }: { m: ServerMetrics; since: string }) {
  const l = m.latency;
  const row = (label: string, id: string, value: string) => (
    <>
      <dt>{label}</dt>
      <dd data-testid={`metric-${id}`}>{value}</dd>
    </>
  );
  return (
    <div data-testid="server-metrics">
      <dl>
        {row('Tool calls', 'calls', formatCount(m.calls))}
        {row('OK', 'ok', formatCount(m.ok))}
        {row('Tool errors', 'tool-errors', formatCount(m.toolErrors))}
        {row('Failed', 'errors', formatCount(m.errors))}
        {row('Timed out', 'timeouts', formatCount(m.timeouts))}
        {row('Cancelled', 'cancellations', formatCount(m.cancellations))}
        {row(
          'Latency',
          'latency',
          `p50 ${formatMs(l.p50Ms)} · p95 ${formatMs(l.p95Ms)} · p99 ${formatMs(l.p99Ms)} (last ${plural(l.samples, 'call')}, ${Math.round(l.windowMs / 60_000)} min)`,
        )}
        {row('Sent / received', 'bytes', `${formatBytes(m.bytesOut)} / ${formatBytes(m.bytesIn)}`)}
        {row(
          'Connections',
          'connections',
          `${plural(m.connects, 'connect')}, ${plural(m.reconnects, 'reconnect')}, ${plural(m.drops, 'drop')}, ${m.connectFailures} failed`,
        )}
        {m.lastCallAt !== undefined && row('Last call', 'last-call', new Date(m.lastCallAt).toLocaleString())}
      </dl>
      {m.causes.length > 0 && (
        <>
          <h4>Recent connection problems</h4>
          <ul className="metric-causes" data-testid="metric-causes">
            {[...m.causes].reverse().map((c, i) => (
              <li key={`${c.at}-${i}`}>
                {new Date(c.at).toLocaleTimeString()} — {c.kind === 'dropped' ? 'dropped' : 'failed'} (
                {c.code}): {c.message}
              </li>
            ))}
          </ul>
        </>
      )}
      <p className="muted">Counted since {since} by every run of the app and the CLI.</p>
    </div>
  );
}
