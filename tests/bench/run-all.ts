/**
 * `npm run bench`: every `tests/bench/*-bench.ts` file, one after another, each in its own Node
 * process (so one bench's heap, handles and child processes never colour another's numbers, and
 * the soak bench measures a process that did nothing else). Each prints its own lines and ends
 * with one JSON object; this runner prints each key against its goal and alarm, then the merged
 * object as its own last line. Speed is compared as ratios against a baseline measured in the
 * same run. `npm run bench -- --check` exits 1 when a key is past its alarm (goals.ts), naming
 * it; past the goal but within the alarm it only says OVER GOAL, so machine noise fails nothing.
 * `BENCH_ONLY=tool-call,startup npm run bench` runs the files whose name contains one of those;
 * `BENCH_SKIP=soak` leaves out those whose name contains one of those (CI: .ci/run).
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { alarms, BENCH_GOALS, goalBound, verdict } from './goals.js';

const here = path.dirname(fileURLToPath(import.meta.url));

function benchFiles(): string[] {
  const only = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);
  const skip = (process.env.BENCH_SKIP ?? '').split(',').filter(Boolean);
  return readdirSync(here)
    .filter((f) => f.endsWith('-bench.ts'))
    .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
    .filter((f) => !skip.some((s) => f.includes(s)))
    .sort((a, b) => (a === 'tool-call-bench.ts' ? -1 : b === 'tool-call-bench.ts' ? 1 : a.localeCompare(b)));
}

/** Runs one bench file, echoing its output, and returns the JSON object on its last line. */
function runOne(file: string): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(here, file)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      process.stdout.write(chunk);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      try {
        if (code !== 0) throw new Error(`exit code ${code}`);
        resolve(JSON.parse(last) as Record<string, number>);
      } catch (error) {
        reject(new Error(`${file}: no JSON result line (${(error as Error).message})`));
      }
    });
  });
}

async function main(): Promise<void> {
  const check = process.argv.slice(2).includes('--check');
  const merged: Record<string, number> = {};
  const failures: string[] = [];
  for (const file of benchFiles()) {
    console.log(`\n== ${file}`);
    try {
      Object.assign(merged, await runOne(file));
    } catch (error) {
      failures.push((error as Error).message);
    }
  }
  console.log('\n== goals');
  for (const [key, goal] of Object.entries(BENCH_GOALS)) {
    console.log(`${key.padEnd(28)} ${verdict(merged[key], goal)}`);
  }
  for (const failure of failures) console.log(`bench failed: ${failure}`);
  if (failures.length) process.exitCode = 1;
  if (check) {
    const past = alarms(merged);
    for (const a of past)
      console.log(
        `bench ALARM: ${a.key} = ${a.value} ${a.goal.unit}, past its alarm of ${a.goal.alarm} (goal ${goalBound(a.goal)})`,
      );
    if (past.length) process.exitCode = 1;
    else if (!failures.length) console.log('bench check: every measured key is within its alarm');
  }
  console.log(JSON.stringify(merged));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
