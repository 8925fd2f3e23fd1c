/**
 * Metrics match what happened (issue 11, must-show 4): a scripted mix of calls, tool errors,
 * failures and timeouts against real servers, each a separate `mcp-desk call` process, and then
 * `mcp-desk metrics --json` counts exactly those and `--prometheus` parses. A second part drives
 * one host in-process for what a one-shot run cannot show: a cancellation, and a crash followed
 * by an automatic reconnect with its cause.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { MetricsRecorder } from '../../electron/host/metrics/metrics-recorder.js';
import {
  metricsSnapshotSchema,
  type MetricsSnapshot,
  type ServerMetrics,
} from '../../shared/domain/metrics.js';
import { cliWorkspace, runCli, type CliRun } from '../helpers/cli-runner.js';
import {
  CleanupStack,
  createTestHost,
  nodeServer,
  rejection,
  SERVERS,
  slowCallsStarted,
  tempDir,
  waitForState,
} from '../helpers/host-harness.js';
import { parsePrometheus } from '../helpers/prometheus-parse.js';
import { functionCall, reply, text } from '../fixtures/fake-gemini.js';
import { fakeModelOverrides, startFakeModel } from '../helpers/fake-model.js';

function server(snap: MetricsSnapshot, id: string): ServerMetrics {
  const s = snap.servers.find((x) => x.serverId === id);
  assert.ok(s, `no metrics for ${id}: ${JSON.stringify(snap.servers.map((x) => x.serverId))}`);
  return s;
}

/** The outcome counters in a fixed order, for one exact comparison. */
const outcomes = (s: ServerMetrics) => ({
  calls: s.calls,
  ok: s.ok,
  toolErrors: s.toolErrors,
  errors: s.errors,
  timeouts: s.timeouts,
  cancellations: s.cancellations,
});

describe('metrics', { timeout: 240_000 }, () => {
  const stack = new CleanupStack();
  after(() => stack.run());

  it('mcp-desk metrics --json counts exactly the calls, errors and timeouts of earlier runs', async () => {
    const { config, dataDir } = await cliWorkspace(stack, {
      every: nodeServer(SERVERS.everything, ['stdio']),
      crashy: nodeServer(SERVERS.crash),
    });
    const cli = (...args: string[]): Promise<CliRun> =>
      runCli(['--config', config, ...args], { MCP_DESK_DATA_DIR: dataDir });
    const expectExit = async (code: number, ...args: string[]) => {
      const run = await cli(...args);
      assert.equal(run.code, code, `${args.join(' ')}: exit ${run.code}; stderr: ${run.stderr}`);
      return run;
    };

    // The script, one process per call, as a shell script would run it.
    await expectExit(0, 'call', 'every', 'echo', '{"message":"one"}');
    await expectExit(1, 'call', 'every', 'no-such-tool');
    // The first run caches crashy's era verdict, so the next connects need no probe and fit
    // easily inside the 4 s that --timeout also gives the call.
    await expectExit(0, 'call', 'crashy', 'echo', '{"message":"x"}');
    const slow = await expectExit(1, 'call', 'crashy', 'slow', '{"ms":60000}', '--timeout', '4000');
    assert.match(slow.stderr, /server "crashy" did not answer the call to tool "slow" within 4 s/);
    await expectExit(1, 'call', 'crashy', 'crash');

    const snap = metricsSnapshotSchema.parse(JSON.parse((await expectExit(0, 'metrics', '--json')).stdout));
    const every = server(snap, 'every');
    const crashy = server(snap, 'crashy');
    assert.deepEqual(outcomes(every), {
      calls: 2,
      ok: 1,
      toolErrors: 0,
      errors: 1,
      timeouts: 0,
      cancellations: 0,
    });
    assert.deepEqual(outcomes(crashy), {
      calls: 3,
      ok: 1,
      toolErrors: 0,
      errors: 1,
      timeouts: 1,
      cancellations: 0,
    });
    // One connect per run that named the server; the crash dropped a live connection once.
    assert.equal(every.connects, 2);
    assert.equal(crashy.connects, 3);
    assert.equal(crashy.drops, 1);
    assert.equal(crashy.causes.at(-1)?.kind, 'dropped');
    assert.equal(crashy.causes.at(-1)?.code, 'connection_closed');
    // Latency covers the answered and failed calls, not the timeout.
    assert.equal(every.latency.samples, 2);
    assert.equal(crashy.latency.samples, 2);
    assert.equal(crashy.timedCalls, 2);
    assert.ok(every.latency.p50Ms !== null && every.latency.p99Ms !== null);
    assert.ok(every.latency.p50Ms <= every.latency.p99Ms);
    // `{"message":"one"}` and `{}` went out; one answer came back.
    assert.equal(every.bytesOut, '{"message":"one"}'.length + 2);
    assert.ok(every.bytesIn > '{"content":[]}'.length, String(every.bytesIn));

    const prom = parsePrometheus((await expectExit(0, 'metrics', '--prometheus')).stdout);
    for (const s of [every, crashy]) {
      const labels = { server: s.serverId };
      assert.equal(prom.value('mcp_desk_tool_calls_total', labels), s.calls);
      assert.equal(prom.value('mcp_desk_tool_call_errors_total', labels), s.errors);
      assert.equal(prom.value('mcp_desk_tool_call_timeouts_total', labels), s.timeouts);
      assert.equal(prom.value('mcp_desk_connects_total', labels), s.connects);
      assert.equal(prom.value('mcp_desk_tool_call_latency_seconds_count', labels), s.timedCalls);
      assert.equal(
        prom.value('mcp_desk_tool_call_latency_seconds', { ...labels, quantile: '0.5' }),
        s.latency.p50Ms! / 1000,
      );
    }
    assert.equal(prom.types.get('mcp_desk_tool_calls_total'), 'counter');

    const text = await expectExit(0, 'metrics');
    assert.match(text.stdout, /^crashy: 3 calls \(1 ok, 0 tool errors, 1 errors, 1 timeouts, 0 cancelled\)/m);

    const reset = metricsSnapshotSchema.parse(
      JSON.parse((await expectExit(0, 'metrics', '--reset', '--json')).stdout),
    );
    assert.deepEqual(reset.servers, []);
    // The file itself was reset, not just the answer.
    const reread = (await MetricsRecorder.open({ path: join(dataDir, 'metrics.json') })).snapshot();
    assert.deepEqual(reread.servers, []);
  });

  it('a host counts cancellations, drops and the reconnect that follows, and persists them', async () => {
    const callLog = join(await tempDir(stack), 'calls.log');
    const host = await createTestHost(stack, {
      servers: { crashy: nodeServer(SERVERS.crash, [], { env: { CALL_LOG: callLog } }) },
      dataDir: true,
    });
    await waitForState(host.host, 'crashy', 'connected');
    const slow = host.host.callTool('crashy', 'slow', { ms: 30_000 }, { callId: 'c1' });
    // Cancel once the server has the call, so that the cancellation reaches it in flight.
    await slowCallsStarted(callLog);
    assert.equal(host.host.cancel('c1'), true);
    assert.equal((await rejection(slow)).code, 'cancelled');
    assert.equal((await rejection(host.host.callTool('crashy', 'crash', {}))).code, 'connection_closed');
    await waitForState(host.host, 'crashy', 'reconnecting');
    await waitForState(host.host, 'crashy', 'connected');
    await host.host.callTool('crashy', 'echo', { message: 'back' });

    const routed = await host.router.handle('metrics.get', {});
    assert.ok(routed.ok, JSON.stringify(routed));
    const crashy = server(metricsSnapshotSchema.parse(routed.value), 'crashy');
    assert.deepEqual(outcomes(crashy), {
      calls: 3,
      ok: 1,
      toolErrors: 0,
      errors: 1,
      timeouts: 0,
      cancellations: 1,
    });
    assert.deepEqual([crashy.connects, crashy.drops, crashy.reconnects], [1, 1, 1]);
    assert.deepEqual(
      crashy.causes.map((c) => [c.kind, c.code]),
      [['dropped', 'connection_closed']],
    );
    assert.match(crashy.causes[0].message, /crash/);

    await host.dispose();
    const reread = (await MetricsRecorder.open({ path: join(host.dir, 'data', 'metrics.json') })).snapshot();
    assert.deepEqual(outcomes(server(reread, 'crashy')), outcomes(crashy));
    assert.equal(server(reread, 'crashy').reconnects, 1);
  });

  it("a conversation keeps the model's own token counts, per message and in total", async () => {
    const key = 'fake-key-for-metrics-1';
    const fake = await startFakeModel(stack, key);
    const host = await createTestHost(stack, {
      servers: { every: nodeServer(SERVERS.everything, ['stdio'], { trust: 'trusted' }) },
      providerOverrides: fakeModelOverrides(fake, key),
    });
    await waitForState(host.host, 'every', 'connected');
    // The fake's usageMetadata: 12 prompt tokens; candidates ceil(text/4) + 1, total 13 + ceil(text/4).
    fake.enqueue(reply(functionCall('every__echo', { message: 'hi' }, { id: 'u1' })), reply(text('Done.')));
    const conv = await host.chat.create();
    const { done } = await host.chat.send(conv.id, 'echo hi');
    assert.equal((await done).reason, 'done');
    const stored = await host.chat.get(conv.id);
    const assistant = stored.messages.filter((m) => m.role === 'assistant');
    assert.deepEqual(
      assistant.map((m) => m.usage),
      [
        { inputTokens: 12, outputTokens: 1, totalTokens: 13 },
        { inputTokens: 12, outputTokens: 3, totalTokens: 15 },
      ],
    );
    assert.deepEqual(stored.usage, { inputTokens: 24, outputTokens: 4, totalTokens: 28 });
    assert.deepEqual((await host.chat.list()).find((c) => c.id === conv.id)?.usage, stored.usage);
    const model = host.settings.get().geminiModel;
    assert.deepEqual(host.metrics.snapshot().models, [
      { provider: 'gemini', model, inputTokens: 24, outputTokens: 4, totalTokens: 28, turns: 2 },
    ]);
    // The tool call the model made is counted like any other.
    assert.equal(server(host.metrics.snapshot(), 'every').ok, 1);
  });
});
