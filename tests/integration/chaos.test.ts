/**
 * Chaos under load: 1,000 tool calls spread over five real stdio servers while a loop
 * `kill -9`s random ones by their real pids. Every call must settle (its own answer, or an
 * error that names its server) within its timeout; no call is answered twice or with another
 * call's answer; every server comes back through the host's backoff; and once it is over the
 * host's counters (calls, SDK requests, pending, listeners, timers) are back where they
 * started and no process is left. CHAOS_CALLS / CHAOS_MS / CHAOS_SEED resize or replay a run.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { HostDiagnosticsSnapshot } from '../../electron/host/servers/host-diagnostics.js';
import { toHostError } from '../../electron/host/util/errors.js';
import type { HostError } from '../../shared/domain/server-state.js';
import {
  CleanupStack,
  createTestHost,
  delay,
  nodeServer,
  pidsWithEnv,
  recordStates,
  textOf,
  waitAllDead,
  waitFor,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';
import { CHAOS_SERVER, chaosPids, seededRandom } from '../helpers/chaos.js';

const CALLS = Number(process.env.CHAOS_CALLS ?? 1000);
/** How long the kill loop runs; calls are started across the first half of it. */
const CHAOS_MS = Number(process.env.CHAOS_MS ?? 6000);
const SEED = Number(process.env.CHAOS_SEED ?? Date.now() % 1_000_000);
const SERVER_COUNT = 5;
const CALL_TIMEOUT_MS = 15_000;
/** A call that has not settled this long after its timeout never will: that is the failure. */
const SETTLE_GRACE_MS = 10_000;
/** The errors a call may end with when its server is killed under it or is still coming back. */
const CHAOS_CODES = new Set(['connection_closed', 'not_connected', 'send_failed']);

interface Outcome {
  callId: string;
  server: string;
  ok?: string;
  error?: HostError;
  unsettled?: true;
  ms: number;
}

describe('chaos under load', { timeout: 240_000 }, () => {
  const stack = new CleanupStack();
  const marker = `chaos-${randomUUID()}`;
  const ids = Array.from({ length: SERVER_COUNT }, (_, i) => `s${i}`);
  let t: TestHost;
  let states: ReturnType<typeof recordStates>;
  let baseline: HostDiagnosticsSnapshot;

  before(async () => {
    const servers: Record<string, unknown> = {};
    for (const id of ids)
      servers[id] = nodeServer(CHAOS_SERVER, [], { env: { MCP_DESK_CHAOS: `${marker}-${id}` } });
    t = await createTestHost(stack, { servers });
    states = recordStates(t, stack);
    for (const id of ids) await waitForState(t.host, id, 'connected');
    baseline = await t.host.diagnostics();
  });
  after(async () => {
    await stack.run();
    // Disposed: nothing of any server may survive the host.
    await waitAllDead(pidsWithEnv(marker));
  });

  it(`settles ${CALLS} calls over ${SERVER_COUNT} servers killed at random, then drains to zero`, async () => {
    const random = seededRandom(SEED);
    const outcomes: Outcome[] = [];
    const call = async (i: number): Promise<void> => {
      const server = ids[i % SERVER_COUNT];
      const callId = `c${i}`;
      const started = performance.now();
      let guard: NodeJS.Timeout | undefined;
      const deadline = new Promise<'unsettled'>((r) => {
        guard = setTimeout(() => r('unsettled'), CALL_TIMEOUT_MS + SETTLE_GRACE_MS);
      });
      const run = t.host
        .callTool(
          server,
          'work',
          { id: callId, ms: Math.floor(random() * 1500) },
          {
            callId,
            timeoutMs: CALL_TIMEOUT_MS,
          },
        )
        .then((r): Omit<Outcome, 'ms'> => ({ callId, server, ok: textOf(r) }))
        .catch((e: unknown) => ({ callId, server, error: toHostError(e) }));
      const settled = await Promise.race([run, deadline]);
      clearTimeout(guard);
      const ms = performance.now() - started;
      outcomes.push(settled === 'unsettled' ? { callId, server, unsettled: true, ms } : { ...settled, ms });
    };

    // Half the calls at once, the rest spread over the first half of the chaos, so calls also
    // arrive at servers that are down or coming back.
    const running: Promise<void>[] = [];
    const burst = Math.ceil(CALLS / 2);
    for (let i = 0; i < burst; i++) running.push(call(i));
    const trickle = (async () => {
      const step = CHAOS_MS / 2 / Math.max(1, CALLS - burst);
      for (let i = burst; i < CALLS; i++) {
        running.push(call(i));
        if (i % 10 === 0) await delay(step * 10);
      }
    })();

    const kills: { server: string; pid: number }[] = [];
    const chaosEnd = Date.now() + CHAOS_MS;
    while (Date.now() < chaosEnd) {
      await delay(150 + random() * 250);
      // Only servers that are up. Killing one again while it reconnects would read as a
      // failed connect, and enough of those in a row rightly make the host give up on it.
      const up = [...chaosPids(marker)].filter(([id]) => t.host.serverState(id)?.kind === 'connected');
      if (!up.length) continue;
      const [server, pids] = up[Math.floor(random() * up.length)];
      for (const pid of pids) {
        process.kill(pid, 'SIGKILL');
        kills.push({ server, pid });
      }
    }
    await trickle;
    await Promise.all(running);

    const summary = tally(outcomes);
    console.log(
      `chaos seed ${SEED}: ${CALLS} calls, ${kills.length} kills, ${summary.ok} answered, ` +
        `${summary.failed} failed (${JSON.stringify(summary.codes)}), slowest ${summary.slowestMs} ms`,
    );
    assert.equal(outcomes.length, CALLS, 'every call reported once');
    assert.deepEqual(
      outcomes.filter((o) => o.unsettled).map((o) => o.callId),
      [],
      'calls that never settled',
    );
    assert.ok(kills.length >= 3, `the chaos loop killed only ${kills.length} servers`);
    assert.ok(
      summary.ok > 0 && summary.failed > 0,
      `chaos had no visible effect: ${JSON.stringify(summary)}`,
    );

    // Each answer is the call's own, from a real process of the server it was sent to.
    const pidsOf = new Map(ids.map((id) => [id, servedPids(t.host.log(id).map((l) => l.text))]));
    for (const o of outcomes.filter((x) => x.ok !== undefined)) {
      const [answeredId, pid] = (o.ok ?? '').split(' ');
      assert.equal(answeredId, o.callId, `call ${o.callId} got another call's answer: ${o.ok}`);
      assert.ok(pidsOf.get(o.server)?.has(Number(pid)), `call ${o.callId} answered by pid ${pid}`);
    }
    // Each failure is one a person can act on: a known code, naming the server.
    for (const o of outcomes.filter((x) => x.error)) {
      const e = o.error!;
      assert.ok(CHAOS_CODES.has(e.code), `call ${o.callId}: unexpected ${JSON.stringify(e)}`);
      assert.ok(
        e.message.includes(`"${o.server}"`),
        `call ${o.callId}: ${e.message} does not name its server`,
      );
    }
    // No call answered twice: the audit log has exactly one end per call id.
    const ends = new Map<string, number>();
    for (const r of await t.audit.query({ kind: 'tool-call', limit: 10_000 })) {
      const callId = (r.details as { callId?: string } | undefined)?.callId;
      if ((r.action === 'call-end' || r.action === 'call-error') && callId)
        ends.set(callId, (ends.get(callId) ?? 0) + 1);
    }
    const twice = [...ends].filter(([, n]) => n !== 1);
    assert.deepEqual(twice, [], 'call ids that ended more than once');
    assert.equal(ends.size, CALLS, 'every call ended in the audit log');

    // Every server comes back on its own, through a recorded reconnect with its cause. A server
    // killed just before the loop ended can still read as connected until the host notices the
    // exit, so "back" means connected through a live process the loop did not kill.
    const killed = new Set(kills.map((k) => k.pid));
    await waitFor(
      'every server connected through a process the chaos loop did not kill',
      async () => {
        const d = await t.host.diagnostics();
        return ids.every((id) => {
          const pid = d.servers[id]?.pid;
          return t.host.serverState(id)?.kind === 'connected' && pid !== undefined && !killed.has(pid);
        })
          ? true
          : undefined;
      },
      60_000,
    );
    for (const { server } of kills) {
      const kinds = states.get(server) ?? [];
      assert.ok(
        kinds.includes('reconnecting'),
        `${server} never went through reconnecting: ${kinds.join(' -> ')}`,
      );
    }
    const reconnects = (await t.audit.query({ kind: 'connection', limit: 10_000 })).filter(
      (r) => r.action === 'reconnecting',
    );
    assert.ok(reconnects.length > 0, 'no reconnect was recorded');
    for (const r of reconnects)
      assert.equal((r.details as { code?: string }).code, 'connection_closed', JSON.stringify(r));
    for (const id of ids) {
      const answer = textOf(await t.host.callTool(id, 'work', { id: `after-${id}`, ms: 0 }));
      assert.match(answer, new RegExp(`^after-${id} \\d+$`));
    }

    // Everything drains back to where it started, and only the five live servers run.
    const drained = await waitFor('the host to drain back to its baseline', async () => {
      const d = await t.host.diagnostics();
      return d.calls === 0 &&
        d.sdkRequests === 0 &&
        d.timers.retries === 0 &&
        d.timers.active <= baseline.timers.active &&
        // The live servers run, and no more processes than at the start (the runner's own helper,
        // tsx's esbuild, may have ended meanwhile).
        d.processes.servers.every((pid) => d.processes.descendants.includes(pid)) &&
        d.processes.descendants.length <= baseline.processes.descendants.length
        ? d
        : undefined;
    }).catch(async (error: Error) => {
      error.message += `; baseline ${JSON.stringify(baseline)}; now ${JSON.stringify(await t.host.diagnostics())}`;
      throw error;
    });
    for (const id of ids) {
      assert.deepEqual(drained.servers[id].sdk, { requests: 0, timeouts: 0, progress: 0, serving: 0 }, id);
      assert.equal(drained.servers[id].calls, 0, id);
    }
    assert.deepEqual(drained.pending, { queued: 0, held: 0, byServer: {} });
    assert.deepEqual(drained.listeners, baseline.listeners, 'event listeners');
    const live = new Set([...chaosPids(marker).values()].flat());
    assert.equal(live.size, SERVER_COUNT, 'one live process per server');
    // The runner's own helpers (tsx's esbuild) were there before and stay; nothing else may.
    const helpers = baseline.processes.descendants.filter((p) => !baseline.processes.servers.includes(p));
    const allowed = new Set([...helpers, ...live]);
    for (const pid of live)
      assert.ok(drained.processes.descendants.includes(pid), `live server ${pid} is listed`);
    assert.deepEqual(
      drained.processes.descendants.filter((pid) => !allowed.has(pid)),
      [],
      'only the live servers (and the runner helpers that were there before) are left',
    );
    for (const { pid } of kills) assert.ok(!live.has(pid), `killed pid ${pid} is still alive`);
  });
});

function tally(outcomes: Outcome[]) {
  const codes: Record<string, number> = {};
  for (const o of outcomes) if (o.error) codes[o.error.code] = (codes[o.error.code] ?? 0) + 1;
  return {
    ok: outcomes.filter((o) => o.ok !== undefined).length,
    failed: outcomes.filter((o) => o.error).length,
    codes,
    slowestMs: Math.round(Math.max(0, ...outcomes.map((o) => o.ms))),
  };
}

/** Every pid a server's processes announced on stderr ("chaos-server ready (pid N)"). */
function servedPids(lines: string[]): Set<number> {
  const pids = new Set<number>();
  for (const line of lines) {
    const m = /chaos-server ready \(pid (\d+)\)/.exec(line);
    if (m) pids.add(Number(m[1]));
  }
  return pids;
}
