#!/usr/bin/env node
// CI's benchmark step (.ci/run), after `npm test`: runs every bench file but the 10k-call soak
// with `--check` (tests/bench/run-all.ts: exit 1 past a key's alarm), so the goals table is in
// every CI log and a lost speed-up fails the run. Then it closes the log with npm test's own
// summary line, CI reading `N passed, N failed` from the very last line: an alarm (or a bench
// that could not run) counts there as one failed test, like a failed lint in scripts/test.mjs.
//   node scripts/ci-bench.mjs "<npm test's last line>" <npm test's exit code>
// Exits 1 if npm test or the bench failed. The build is npm test's (the bench needs out/).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [summary = '', testCodeText = '1'] = process.argv.slice(2);
const testCode = Number(testCodeText) || 0;

/** Runs the bench runner with --check; resolves to its exit code (1 if it could not start). */
function runBench() {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join('tests', 'bench', 'run-all.ts'), '--check'],
      // The soak bench (10,000 calls, minutes) is for `npm run bench`, not for every CI run.
      { cwd: root, env: { ...process.env, BENCH_SKIP: 'soak' }, stdio: ['ignore', 'inherit', 'inherit'] },
    );
    child.on('error', (error) => {
      console.log(`ci: could not start the benchmark: ${error.message}`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

console.log('\nci: benchmark (every key but the soak), --check');
const benchCode = await runBench();
if (benchCode !== 0) console.log('ci: the benchmark failed or raised an alarm (see above): one failed test');

const counts = /^(\d+) passed, (\d+) failed(.*)$/.exec(summary.trim());
if (counts) {
  const failed = Number(counts[2]) + (benchCode !== 0 ? 1 : 0);
  console.log(`${counts[1]} passed, ${failed} failed${counts[3]}`);
} else {
  // npm test ended without its summary (it crashed): say so in the same shape CI reads.
  console.log(`0 passed, ${1 + (benchCode !== 0 ? 1 : 0)} failed, 0 skipped`);
}
process.exit(testCode !== 0 || benchCode !== 0 ? 1 : 0);
