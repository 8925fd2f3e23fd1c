import type { MetricsSnapshot } from '../../shared/domain/metrics.js';
import { MetricsRecorder } from '../host/metrics/metrics-recorder.js';
import { toPrometheus } from '../host/metrics/prometheus.js';

/** What `mcp-desk metrics` was asked for. */
export interface MetricsCommand {
  /** The metrics file every process of the data folder counts into. */
  path: string;
  format: 'text' | 'json' | 'prometheus';
  reset: boolean;
}

/**
 * `mcp-desk metrics [--json | --prometheus] [--reset]`: print what the app, browser mode and
 * earlier CLI runs counted into the data folder's metrics file (every host process adds its
 * own increments there when it flushes, at the latest on exit). Starts no server: a one-shot
 * run would only count itself, and reading is what a script or a scraper wants.
 */
export async function runMetrics(cmd: MetricsCommand, out: (text: string) => void): Promise<number> {
  const recorder = await MetricsRecorder.open({ path: cmd.path });
  const snap = cmd.reset ? await recorder.reset() : recorder.snapshot();
  if (cmd.format === 'json') out(JSON.stringify(snap));
  else if (cmd.format === 'prometheus') out(toPrometheus(snap).trimEnd());
  else out(metricsText(snap));
  return 0;
}

/** The snapshot as a few aligned lines a person can read. */
export function metricsText(snap: MetricsSnapshot): string {
  const lines = [`counting since ${new Date(snap.since).toISOString()}`];
  if (snap.servers.length === 0) lines.push('no tool calls or connections recorded yet');
  for (const s of snap.servers) {
    const l = s.latency;
    const ms = (v: number | null) => (v === null ? '-' : `${v} ms`);
    lines.push(
      `${s.serverId}: ${s.calls} calls (${s.ok} ok, ${s.toolErrors} tool errors, ${s.errors} errors, ` +
        `${s.timeouts} timeouts, ${s.cancellations} cancelled); ` +
        `latency p50 ${ms(l.p50Ms)} p95 ${ms(l.p95Ms)} p99 ${ms(l.p99Ms)} over ${l.samples} calls; ` +
        `${s.bytesOut} bytes out, ${s.bytesIn} in; ` +
        `${s.connects} connects, ${s.reconnects} reconnects, ${s.drops} drops, ${s.connectFailures} failed connects`,
    );
    const last = s.causes[s.causes.length - 1];
    if (last)
      lines.push(
        `  last cause (${last.kind}, ${new Date(last.at).toISOString()}): ${last.code}: ${last.message}`,
      );
  }
  for (const m of snap.models)
    lines.push(
      `${m.provider}/${m.model}: ${m.inputTokens} input + ${m.outputTokens} output tokens (${m.totalTokens} total) over ${m.turns} turns`,
    );
  return lines.join('\n');
}
