#!/usr/bin/env node
// `npm test`: build, then every tests/**/*.test.ts, each file in a node process of its own under
// node's test runner (scripts/test-pool.mjs), with the format check, lint and typecheck running
// beside the tests at low CPU priority (they take what the tests leave idle; their output is
// printed once the tests are done).
//   npm test                 everything
//   npm test -- bridge e2e   only test files whose path contains "bridge" or "e2e"
//   npm test -- --test-name-pattern=reconnect   arguments starting with -- go to each file's node
//   TEST_SKIP_BUILD=1        skip format check, lint, typecheck and build (fast local iteration)
//   TEST_CONCURRENCY         how many test files run at once (default 3; conformance runs alone)
//   TEST_TOTAL_TIMEOUT_MS    kill a hung run after this long (default 70 min, under CI's 90)
// The very last line printed is always `N passed, N failed, N skipped`: CI reads that line, so
// nothing may be printed after it. Just before it: the 15 slowest test files and where the run's
// time went. A failed format check, lint, typecheck or build counts as one failed test each, and
// the tests still run, so one run shows every problem. `npm run test:quick` is the inner loop.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDependencies } from './ensure-deps.mjs';
import { rerunInKeyringSession } from './keyring-session.mjs';
import { SHARED_BROWSER_ENV, startSharedChromium } from './test-chromium.mjs';
import { saveTimes, startOrder } from './test-order.mjs';
import {
  createTally,
  findTestFiles,
  nodeBin,
  npm,
  root,
  run,
  runTestFiles,
  startChecks,
} from './test-run.mjs';

const cliArgs = process.argv.slice(2).filter((arg) => arg.length > 0);
const filters = cliArgs.filter((arg) => !arg.startsWith('--'));
const runnerFlags = cliArgs.filter((arg) => arg.startsWith('--'));
const skipBuild = process.env.TEST_SKIP_BUILD === '1';
const totalTimeoutMs = Number(process.env.TEST_TOTAL_TIMEOUT_MS ?? 70 * 60_000);
// Three files at a time on two cores: most of them spend much of their time waiting (on servers,
// timeouts, a browser); test-order.mjs interleaves e2e files with others, and test-pool.mjs runs
// no more than two e2e files at once while others wait.
const concurrency = Number(process.env.TEST_CONCURRENCY ?? 3);
const historyFile = path.join(root, 'test-results', 'test-times.json');
const deadline = Date.now() + totalTimeoutMs;

ensureDependencies(root);
// Linux without a Secret Service: run again inside a private one where it can be started.
await rerunInKeyringSession(root, fileURLToPath(import.meta.url), process.argv.slice(2));
const tally = createTally();

/**
 * The static checks: the whole tree, as CI sees it. They run beside the tests. Lint is the long
 * pole (one process, minutes of CPU), so it keeps normal priority and finishes within the tests;
 * the format check and the typecheck, shorter, take what the tests leave idle (niceness 10).
 * Prettier's cache is keyed on file content; the typecheck is incremental (tsconfig.json).
 */
function staticChecks() {
  const [prettier, prettierArgs] = nodeBin('prettier', 'bin', 'prettier.cjs');
  const [eslint, eslintArgs] = nodeBin('eslint', 'bin', 'eslint.js');
  return [
    {
      name: 'format check',
      shown: 'prettier --check --cache .',
      command: prettier,
      args: [...prettierArgs, '--check', '--cache', '.'],
      niceness: 10,
    },
    {
      name: 'lint',
      shown: 'eslint . --max-warnings=0',
      command: eslint,
      args: [...eslintArgs, '.', '--max-warnings=0'],
    },
    {
      name: 'typecheck',
      shown: 'npm run typecheck',
      command: npm,
      args: ['run', 'typecheck'],
      niceness: 10,
    },
  ];
}

/**
 * Resolves to a printer of the static checks' blocks once they are done; null when skipped.
 * Run first, they cost the run their whole time (lint alone keeps a core busy for minutes, while
 * the tests leave a good part of two cores idle waiting on servers, timeouts and the browser).
 */
let staticChecksDone = null;
if (skipBuild) {
  console.log('test: TEST_SKIP_BUILD=1, skipping format check, lint, typecheck and build');
} else {
  if ((await tally.phase('build', () => run(process.execPath, [path.join('scripts', 'build.mjs')]))) !== 0) {
    tally.fail('build FAILED (see build output above)');
  }
  console.log('test: format check, lint and typecheck run beside the tests (their output follows the tests)');
  staticChecksDone = startChecks(tally, staticChecks());
}

/** Waits for the static checks and prints their blocks (once). */
async function staticChecksReported() {
  if (!staticChecksDone) return;
  const print = await tally.phase('waiting for the static checks', () => staticChecksDone);
  staticChecksDone = null;
  await print();
}

// The conformance suite needs its own install (see tools/conformance/package.json). A failure
// here is not fatal: the conformance test then fails with a message saying what is missing.
const conformanceDir = path.join(root, 'tools', 'conformance');
// Both suite versions (0.1.16, and 0.2.0-alpha.12 under its npm alias) must be there.
const conformancePackages = [['@modelcontextprotocol', 'conformance'], ['conformance-next']];
if (
  conformancePackages.some(
    (parts) => !existsSync(path.join(conformanceDir, 'node_modules', ...parts, 'package.json')),
  )
) {
  console.log('test: installing tools/conformance (npm ci --prefix tools/conformance)');
  if ((await run(npm, ['ci', '--prefix', 'tools/conformance', '--no-audit', '--no-fund'])) !== 0) {
    console.log('test: could not install tools/conformance; conformance tests will report it');
  }
}

const allFiles = findTestFiles(path.join(root, 'tests'));
const files = filters.length
  ? allFiles.filter((file) => filters.some((filter) => file.includes(filter)))
  : allFiles;
if (files.length === 0) {
  tally.problems.push(
    filters.length
      ? `no test file matches ${filters.map((f) => `"${f}"`).join(', ')}`
      : 'no test files under tests/',
  );
  await staticChecksReported();
  tally.finish();
}
console.log(`test: running ${files.length} file(s)`);

// Files that time a live peer against its own clock (the official conformance runner starts
// dozens of scenarios at once, each with its own deadlines) run after the others, on their own,
// so that a Chromium test beside them on a 2-core machine cannot starve them.
const runsAlone = (file) => file.startsWith('tests/conformance/');
const batches = [
  {
    files: startOrder(
      files.filter((file) => !runsAlone(file)),
      historyFile,
    ),
    concurrency,
    alone: false,
  },
  { files: files.filter(runsAlone), concurrency: 1, alone: true },
].filter((batch) => batch.files.length > 0);

for (const batch of batches) {
  // The files that run alone wait for the static checks too: nothing else may share the machine.
  if (batch.alone) await staticChecksReported();
  if (batches.length > 1) {
    console.log(`test: ${batch.files.length} file(s), ${batch.concurrency} at a time`);
  }
  // One Chromium for every e2e file of the batch (scripts/test-chromium.mjs).
  const browser = await startSharedChromium(batch.files).catch((error) => {
    console.log(`test: could not start the shared Chromium (${error.message}); each e2e file starts its own`);
    return null;
  });
  try {
    await tally.phase(batch.alone ? 'tests run alone' : 'tests', () =>
      runTestFiles(tally, {
        files: batch.files,
        concurrency: batch.concurrency,
        runnerFlags,
        timeoutMs: Math.max(60_000, deadline - Date.now()),
        env: browser ? { [SHARED_BROWSER_ENV]: browser.wsEndpoint() } : {},
      }),
    );
  } finally {
    await browser?.close();
  }
}
await staticChecksReported();
saveTimes(historyFile, tally.fileTimes);
tally.finish();
