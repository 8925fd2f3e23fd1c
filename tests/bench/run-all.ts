/**
 * `npm run bench`: every `tests/bench/*-bench.ts` file, one after another, each in its own Node
 * process (so one bench's heap, handles and child processes never colour another's numbers, and
 * the soak bench measures a process that did nothing else). Each prints its own lines and ends
 * with one JSON object; this runner prints each key against its goal, then the merged object as
 * its own last line. Goals are reported, never asserted: speed is compared as ratios against a
 * baseline measured in the same run, and a slow machine must not fail CI.
 * `BENCH_ONLY=tool-call,startup npm run bench` runs the files whose name contains one of those.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_GOALS, verdict } from './goals.js';

const here = path.dirname(fileURLToPath(import.meta.url));

function benchFiles(): string[] {
  const only = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);
  return readdirSync(here)
    .filter((f) => f.endsWith('-bench.ts'))
    .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
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
  console.log(JSON.stringify(merged));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
