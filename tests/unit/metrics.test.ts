import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonSize } from '../../electron/host/metrics/json-size.js';
import { LatencyWindow, nearestRank } from '../../electron/host/metrics/latency-window.js';
import { emptyPersisted, mergeMetrics } from '../../electron/host/metrics/metrics-file.js';
import { MetricsRecorder } from '../../electron/host/metrics/metrics-recorder.js';
import { toPrometheus } from '../../electron/host/metrics/prometheus.js';
import { zeroCounters } from '../../electron/host/metrics/server-meter.js';
import { HostFailure } from '../../electron/host/util/errors.js';
import { metricsSnapshotSchema } from '../../shared/domain/metrics.js';
import { parsePrometheus } from '../helpers/prometheus-parse.js';

test('nearest-rank percentiles of 1..100 are 50, 95, 99; one sample is every percentile', () => {
  const w = new LatencyWindow(1000, 60_000);
  // Recorded out of order: the summary sorts.
  for (let i = 100; i >= 1; i--) w.record(i, 1000);
  assert.deepEqual(w.summary(1000), { samples: 100, windowMs: 60_000, p50Ms: 50, p95Ms: 95, p99Ms: 99 });
  assert.equal(nearestRank([7], 99), 7);
  assert.equal(nearestRank([], 50), null);
  assert.equal(nearestRank([1, 2, 3, 4], 50), 2);
});

test('the ring keeps only the newest `capacity` samples, and the window only recent ones', () => {
  const w = new LatencyWindow(10, 1000);
  for (let i = 1; i <= 25; i++) w.record(i, 5000 + i);
  const s = w.summary(5025);
  assert.equal(s.samples, 10);
  assert.equal(s.p50Ms, 20); // 16..25
  assert.equal(s.p99Ms, 25);
  // The window reaches back 1000 ms (inclusive) from the newest sample: a later sample at 6020
  // leaves only those at 5020..5025 beside it.
  w.record(30, 6020);
  assert.equal(w.summary(6020).samples, 7);
  assert.equal(new LatencyWindow(10, 1000).summary(10_000).p95Ms, null);
});

test('the same calls give the same percentiles whenever they are read (issue 24)', () => {
  const w = new LatencyWindow(100, 60_000);
  for (let i = 1; i <= 20; i++) w.record(i * 10, 1000 + i);
  const first = w.summary(2000);
  assert.equal(first.samples, 20);
  // A visit an hour later, with no call in between, shows the same numbers.
  assert.deepEqual(w.summary(2000 + 3_600_000), first);
});

test('jsonSize matches JSON.stringify for escape-free values and ignores undefined', () => {
  const values: unknown[] = [
    { content: [{ type: 'text', text: 'Echo: hi' }], isError: false, n: 12.5, z: null },
    [1, 'two', { three: [true, false] }, [], {}],
    { message: 'bench', skip: undefined },
    'x'.repeat(10_000),
    -0.001,
  ];
  for (const v of values) assert.equal(jsonSize(v), JSON.stringify(v).length, JSON.stringify(v).slice(0, 80));
});

test('the recorder counts each outcome once, and latency skips timeouts and cancellations', async () => {
  const r = MetricsRecorder.inMemory();
  const t0 = performance.now();
  r.toolCall('a', t0, { m: 1 }, { content: [] });
  r.toolCall('a', t0, {}, { content: [], isError: true });
  r.toolCall('a', t0, {}, undefined, new HostFailure('timeout', 'x'));
  r.toolCall('a', t0, {}, undefined, new HostFailure('cancelled', 'x'));
  r.toolCall('a', t0, {}, undefined, new Error('boom'));
  r.connectionState('a', { kind: 'connecting', attempt: 1 });
  r.connectionState('a', { kind: 'connected', info: { name: 'a', version: '1' } as never, since: 1 });
  r.connectionState('a', {
    kind: 'reconnecting',
    attempt: 1,
    retryAt: 1,
    lastError: { code: 'connection_closed', message: 'gone' },
  });
  r.connectionState('a', { kind: 'connected', info: { name: 'a', version: '1' } as never, since: 2 });
  r.modelUsage('gemini', 'g', { inputTokens: 3, outputTokens: 4, totalTokens: 7 });
  const snap = metricsSnapshotSchema.parse(r.snapshot());
  const a = snap.servers[0];
  assert.deepEqual(
    [a.calls, a.ok, a.toolErrors, a.timeouts, a.cancellations, a.errors, a.timedCalls],
    [5, 1, 1, 1, 1, 1, 3],
  );
  assert.equal(a.bytesOut, JSON.stringify({ m: 1 }).length + 4 * 2);
  assert.equal(a.latency.samples, 3);
  assert.deepEqual([a.connects, a.reconnects, a.drops], [1, 1, 1]);
  assert.deepEqual(
    a.causes.map((c) => [c.kind, c.code]),
    [['dropped', 'connection_closed']],
  );
  assert.deepEqual(snap.models, [
    { provider: 'gemini', model: 'g', inputTokens: 3, outputTokens: 4, totalTokens: 7, turns: 1 },
  ]);
  await r.dispose();
});

test('merging adds counters and keeps the newest samples inside the window', () => {
  const file = emptyPersisted(100);
  const counters = { ...zeroCounters(), calls: 2, ok: 2 };
  const d = {
    since: 50,
    servers: new Map([['s', { counters, samples: [[900, 1]] as [number, number][], causes: [] }]]),
    models: [],
  };
  const once = mergeMetrics(file, d, 1000, 1000);
  const twice = mergeMetrics(once, d, 1000, 1000);
  assert.equal(twice.servers.s.counters.calls, 4);
  assert.equal(twice.servers.s.samples.length, 2);
  assert.equal(twice.since, 50);
  assert.equal(mergeMetrics(twice, d, 1000, 5000).servers.s.samples.length, 0);
});

test('the Prometheus text parses strictly, label values escaped', () => {
  const r = MetricsRecorder.inMemory();
  r.toolCall('we"ird\\name\n', performance.now(), {}, { content: [] });
  r.modelUsage('openai', 'llama3.2', { inputTokens: 20, outputTokens: 2, totalTokens: 22 });
  const text = toPrometheus(r.snapshot());
  const parsed = parsePrometheus(text);
  assert.equal(parsed.value('mcp_desk_tool_calls_total', { server: 'we"ird\\name\n' }), 1);
  assert.equal(parsed.types.get('mcp_desk_tool_call_latency_seconds'), 'summary');
  assert.equal(parsed.value('mcp_desk_tool_call_latency_seconds_count', { server: 'we"ird\\name\n' }), 1);
  assert.equal(
    parsed.value('mcp_desk_model_tokens_total', { provider: 'openai', model: 'llama3.2', kind: 'input' }),
    20,
  );
  assert.throws(() => parsePrometheus('mcp_x{a="b"} 1'), /line feed/);
  assert.throws(() => parsePrometheus('# TYPE a counter\na 1\nb 1\na 2\n'), /split/);
});
