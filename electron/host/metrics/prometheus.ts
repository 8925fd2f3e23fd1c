import type { MetricsSnapshot, ServerMetrics } from '../../../shared/domain/metrics.js';

/** The content type of what toPrometheus returns (text exposition format 0.0.4). */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

type Labels = Record<string, string>;
interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'summary';
  samples: { suffix?: string; labels: Labels; value: number }[];
}

const SERVER_COUNTERS: [name: string, help: string, pick: (s: ServerMetrics) => number][] = [
  ['mcp_desk_tool_calls_total', 'Tool calls settled, by server.', (s) => s.calls],
  ['mcp_desk_tool_call_ok_total', 'Tool calls answered without isError.', (s) => s.ok],
  ['mcp_desk_tool_call_tool_errors_total', 'Tool calls answered with isError true.', (s) => s.toolErrors],
  [
    'mcp_desk_tool_call_errors_total',
    'Tool calls that failed without an answer (protocol error, crash, not connected).',
    (s) => s.errors,
  ],
  ['mcp_desk_tool_call_timeouts_total', 'Tool calls that timed out.', (s) => s.timeouts],
  ['mcp_desk_tool_call_cancellations_total', 'Tool calls cancelled.', (s) => s.cancellations],
  ['mcp_desk_tool_call_sent_bytes_total', 'JSON size of tool call params sent.', (s) => s.bytesOut],
  ['mcp_desk_tool_call_received_bytes_total', 'JSON size of tool results received.', (s) => s.bytesIn],
  ['mcp_desk_connects_total', 'Successful connects that were not reconnects.', (s) => s.connects],
  ['mcp_desk_reconnects_total', 'Successful reconnects after a dropped connection.', (s) => s.reconnects],
  ['mcp_desk_connection_drops_total', 'Live connections that ended on their own.', (s) => s.drops],
  ['mcp_desk_connect_failures_total', 'Connects and retries that failed.', (s) => s.connectFailures],
];

/**
 * The snapshot in the Prometheus text exposition format 0.0.4: a HELP and TYPE line per family,
 * one sample per server (label `server`), latency as a summary whose quantiles cover the
 * sliding window and whose _sum/_count are cumulative, model tokens per provider and model.
 */
export function toPrometheus(snap: MetricsSnapshot): string {
  const families: Family[] = SERVER_COUNTERS.map(([name, help, pick]) => ({
    name,
    help,
    type: 'counter',
    samples: snap.servers.map((s) => ({ labels: { server: s.serverId }, value: pick(s) })),
  }));
  families.push({
    name: 'mcp_desk_tool_call_latency_seconds',
    help: 'Tool call latency: quantiles over the recent window, sum and count since counting started.',
    type: 'summary',
    samples: snap.servers.flatMap((s) => {
      const server = s.serverId;
      const q = (quantile: string, ms: number | null) =>
        ms === null ? [] : [{ labels: { server, quantile }, value: ms / 1000 }];
      return [
        ...q('0.5', s.latency.p50Ms),
        ...q('0.95', s.latency.p95Ms),
        ...q('0.99', s.latency.p99Ms),
        { suffix: '_sum', labels: { server }, value: s.latencyMicros / 1e6 },
        { suffix: '_count', labels: { server }, value: s.timedCalls },
      ];
    }),
  });
  families.push({
    name: 'mcp_desk_model_tokens_total',
    help: "Model tokens as the provider's usage data reported them, by kind (input, output).",
    type: 'counter',
    samples: snap.models.flatMap((m) => [
      { labels: { provider: m.provider, model: m.model, kind: 'input' }, value: m.inputTokens },
      { labels: { provider: m.provider, model: m.model, kind: 'output' }, value: m.outputTokens },
    ]),
  });
  families.push({
    name: 'mcp_desk_model_turns_total',
    help: 'Model turns that reported usage.',
    type: 'counter',
    samples: snap.models.map((m) => ({ labels: { provider: m.provider, model: m.model }, value: m.turns })),
  });
  families.push({
    name: 'mcp_desk_metrics_start_time_seconds',
    help: 'When counting started (Unix time).',
    type: 'gauge',
    samples: [{ labels: {}, value: Math.floor(snap.since / 1000) }],
  });
  const lines: string[] = [];
  for (const f of families) {
    lines.push(`# HELP ${f.name} ${escapeHelp(f.help)}`, `# TYPE ${f.name} ${f.type}`);
    for (const s of f.samples)
      lines.push(`${f.name}${s.suffix ?? ''}${labelText(s.labels)} ${numberText(s.value)}`);
  }
  return `${lines.join('\n')}\n`;
}

function labelText(labels: Labels): string {
  const entries = Object.entries(labels);
  if (entries.length === 0) return '';
  return `{${entries.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}`;
}

/** Label values escape backslash, double quote and line feed (the format's three). */
function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** HELP text escapes backslash and line feed. */
function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function numberText(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  return String(n);
}
