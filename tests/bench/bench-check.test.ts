/**
 * The bench guards itself: `npm run bench -- --check` fails past a key's alarm, naming the key,
 * and passes within it. The checker's rule is tested on fixed numbers; the whole path (bench
 * process, runner, exit code) on a deliberately slowed host (BENCH_SLOW_HOST_MS, read only by the
 * bench harness), slowed so far past the alarm that no machine's noise can hide it. Whether the
 * real host is within its alarms is the benchmark's own business (.ci/run), never asserted here.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { alarms, BENCH_GOALS, RATIO_ALARM_FACTOR } from './goals.js';

const RUN_ALL = fileURLToPath(new URL('./run-all.ts', import.meta.url));
const CI_BENCH = fileURLToPath(new URL('../../scripts/ci-bench.mjs', import.meta.url));
/** A bench run so slowed that it is past its alarm on any machine (see the test below). */
const SLOWED = {
  BENCH_ONLY: 'concurrent',
  BENCH_CONCURRENT_CALLS: '50',
  BENCH_CONCURRENT_ROUNDS: '1',
  // Each of 50 concurrent calls waits 300 ms: the host takes ten times the bare client's wall time or more.
  BENCH_SLOW_HOST_MS: '300',
};

describe('bench check', { timeout: 180_000 }, () => {
  it('gives every key an alarm beyond its goal, ratios at the goal × 1.3', () => {
    for (const [key, goal] of Object.entries(BENCH_GOALS)) {
      if (goal.min !== undefined) {
        assert.ok(goal.alarm < goal.min, `${key}: alarm ${goal.alarm} is not below its goal ${goal.min}`);
        continue;
      }
      assert.ok(goal.max !== undefined, `${key} has a goal`);
      // A count that must stay zero has no room: its alarm is the goal itself.
      assert.ok(
        goal.alarm > goal.max || goal.alarm === 0,
        `${key}: alarm ${goal.alarm} is not above its goal ${goal.max}`,
      );
      if (goal.unit === 'x')
        assert.equal(goal.alarm, Number((goal.max * RATIO_ALARM_FACTOR).toFixed(3)), key);
    }
    assert.equal(BENCH_GOALS.startup_20_over_raw.max, 1.1);
    assert.equal(BENCH_GOALS.concurrent_1000_over_raw.max, 1.2);
  });

  it('raises an alarm only past the alarm level, and only for keys that were measured', () => {
    const goal = BENCH_GOALS.concurrent_1000_over_raw;
    assert.deepEqual(alarms({ concurrent_1000_over_raw: goal.max! }), []);
    // Over the goal but within the alarm: reported (OVER GOAL), not failed.
    assert.deepEqual(alarms({ concurrent_1000_over_raw: (goal.max! + goal.alarm) / 2 }), []);
    const past = alarms({ concurrent_1000_over_raw: goal.alarm + 0.01, startup_20_over_raw: 1 });
    assert.deepEqual(
      past.map((a) => a.key),
      ['concurrent_1000_over_raw'],
    );
    // A floor (recall) alarms below it, not above.
    const recall = BENCH_GOALS.toolsearch_gold_recall_at_32;
    assert.deepEqual(alarms({ toolsearch_gold_recall_at_32: recall.alarm + 0.01 }), []);
    assert.deepEqual(
      alarms({ toolsearch_gold_recall_at_32: recall.alarm - 0.01 }).map((a) => a.key),
      ['toolsearch_gold_recall_at_32'],
    );
    // BENCH_ONLY runs some files: the keys of the others are simply absent.
    assert.deepEqual(alarms({}), []);
  });

  it('fails `--check` on a deliberately slowed host, naming the key', async () => {
    const run = await runNode([RUN_ALL, '--check'], SLOWED);
    assert.equal(run.code, 1, run.out);
    assert.match(run.out, /bench ALARM: concurrent_1000_over_raw = [\d.]+ x, past its alarm of 1\.56/);
    const keys = JSON.parse(run.out.trim().split('\n').at(-1) ?? '{}') as Record<string, number>;
    assert.ok(keys.concurrent_1000_over_raw > 1.56, JSON.stringify(keys));
  });

  it("makes CI fail on an alarm while its last line stays npm test's summary, one more failed", async () => {
    const run = await runNode([CI_BENCH, '12 passed, 0 failed, 3 skipped', '0'], SLOWED);
    assert.equal(run.code, 1, run.out);
    assert.match(run.out, /bench ALARM: concurrent_1000_over_raw/);
    assert.equal(run.out.trimEnd().split('\n').at(-1), '12 passed, 1 failed, 3 skipped');
  });
});

/** A Node script (under tsx) with these variables; its exit code and stdout. */
function runNode(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}
