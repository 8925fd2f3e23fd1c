#!/usr/bin/env node
// `npm test`: format check, lint and typecheck (side by side), build, then every
// tests/**/*.test.ts under Node's own test runner.
//   npm test                 everything
//   npm test -- bridge e2e   only test files whose path contains "bridge" or "e2e"
//   npm test -- --test-name-pattern=reconnect   arguments starting with -- go to `node --test`
//   TEST_SKIP_BUILD=1        skip format check, lint, typecheck and build (fast local iteration)
//   TEST_TOTAL_TIMEOUT_MS    kill a hung run after this long (default 70 min, under CI's 90)
// The very last line printed is always `N passed, N failed, N skipped`: CI reads that line, so
// nothing may be printed after it. A failed format check, lint, typecheck or build counts as one
// failed test each, and the tests still run, so one run shows every problem.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { ensureDependencies } from './ensure-deps.mjs';
import { readFileTimes, slowestTable } from './test-times.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cliArgs = process.argv.slice(2).filter((arg) => arg.length > 0);
const filters = cliArgs.filter((arg) => !arg.startsWith('--'));
const runnerFlags = cliArgs.filter((arg) => arg.startsWith('--'));
const skipBuild = process.env.TEST_SKIP_BUILD === '1';
const totalTimeoutMs = Number(process.env.TEST_TOTAL_TIMEOUT_MS ?? 70 * 60_000);

const testEnv = {
  ...process.env,
  // Nothing in a test run may fetch a browser or an Electron build from a CDN.
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
  ELECTRON_SKIP_BINARY_DOWNLOAD: '1',
};

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * Runs a command; resolves to its exit code (1 if it could not start). Output is inherited, or
 * with `capture` collected into `capture.text` so checks that run side by side do not interleave.
 */
function run(command, args, { onStdoutLine, timeoutMs, capture } = {}) {
  return new Promise((resolve) => {
    const piped = capture ? 'pipe' : 'inherit';
    const child = spawn(command, args, {
      cwd: root,
      env: testEnv,
      stdio: ['ignore', onStdoutLine || capture ? 'pipe' : 'inherit', piped],
      shell: process.platform === 'win32',
    });
    if (capture) {
      capture.text = '';
      for (const stream of [child.stderr, ...(onStdoutLine ? [] : [child.stdout])]) {
        stream.setEncoding('utf8');
        stream.on('data', (chunk) => (capture.text += chunk));
      }
    }
    let timer;
    if (timeoutMs) {
      timer = setTimeout(() => {
        console.error(`test: still running after ${Math.round(timeoutMs / 60_000)} min; stopping it`);
        child.kill('SIGKILL');
      }, timeoutMs);
    }
    if (onStdoutLine) {
      let pending = '';
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk) => {
        process.stdout.write(chunk);
        pending += chunk;
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        lines.forEach(onStdoutLine);
      });
      child.stdout.on('end', () => pending && onStdoutLine(pending));
    }
    child.on('error', (error) => {
      console.error(`test: could not start ${command}: ${error.message}`);
      clearTimeout(timer);
      resolve(1);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

/** Every tests/**\/*.test.ts, repo-relative with forward slashes, sorted. */
function findTestFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return findTestFiles(full);
      return entry.isFile() && entry.name.endsWith('.test.ts')
        ? [path.relative(root, full).split(path.sep).join('/')]
        : [];
    })
    .sort();
}

const counts = { passed: 0, failed: 0, skipped: 0 };
const problems = [];
/** Each test file's time ({file, ms, passed}), filled in batch by batch. */
const fileTimes = [];
/** Where each phase's time went (name, seconds), printed at the end. */
const phases = [];
const runStarted = Date.now();
/** Runs `step` and records its wall time as phase `name`. */
async function phase(name, step) {
  const started = Date.now();
  try {
    return await step();
  } finally {
    phases.push(`${name} ${Math.round((Date.now() - started) / 1000)} s`);
  }
}

function finish() {
  if (fileTimes.length > 0) for (const line of slowestTable(fileTimes)) console.log(line);
  phases.push(`in all ${Math.round((Date.now() - runStarted) / 1000)} s`);
  console.log(`test: time: ${phases.join(', ')}`);
  for (const problem of problems) console.log(`test: ${problem}`);
  console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  process.exit(counts.failed > 0 || problems.length > 0 ? 1 : 0);
}

ensureDependencies(root);

/**
 * The static checks, started together (lint and tsc each keep a core busy) with their output
 * held back and printed one block per check, in this order, so the log reads as if run in turn.
 */
async function staticChecks() {
  const nodeBin = (...parts) => [process.execPath, [path.join(root, 'node_modules', ...parts)]];
  const [prettier, prettierArgs] = nodeBin('prettier', 'bin', 'prettier.cjs');
  const [eslint, eslintArgs] = nodeBin('eslint', 'bin', 'eslint.js');
  const checks = [
    {
      name: 'format check',
      shown: 'prettier --check .',
      command: prettier,
      args: [...prettierArgs, '--check', '.'],
    },
    {
      name: 'lint',
      shown: 'eslint . --max-warnings=0',
      command: eslint,
      args: [...eslintArgs, '.', '--max-warnings=0'],
    },
    { name: 'typecheck', shown: 'npm run typecheck', command: npm, args: ['run', 'typecheck'] },
  ];
  console.log(`test: running ${checks.map((check) => check.name).join(', ')} side by side`);
  const started = Date.now();
  const running = checks.map((check) => {
    const capture = { text: '' };
    const done = run(check.command, check.args, { capture }).then((code) => ({
      code,
      seconds: ((Date.now() - started) / 1000).toFixed(1),
    }));
    return { check, capture, done };
  });
  for (const { check, capture, done } of running) {
    const { code, seconds } = await done;
    console.log(`\n── ${check.name}: ${check.shown} ── ${code === 0 ? 'passed' : 'FAILED'} (${seconds} s)`);
    if (capture.text.trim()) console.log(capture.text.trimEnd());
    if (code !== 0) {
      counts.failed += 1;
      problems.push(`${check.name} FAILED (see the "${check.name}" block above; \`${check.shown}\`)`);
    }
  }
  console.log('');
}

if (skipBuild) {
  console.log('test: TEST_SKIP_BUILD=1, skipping format check, lint, typecheck and build');
} else {
  await phase('static checks', staticChecks);
  if ((await phase('build', () => run(process.execPath, [path.join('scripts', 'build.mjs')]))) !== 0) {
    counts.failed += 1;
    problems.push('build FAILED (see build output above)');
  }
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
  problems.push(
    filters.length
      ? `no test file matches ${filters.map((f) => `"${f}"`).join(', ')}`
      : 'no test files under tests/',
  );
  finish();
}
console.log(`test: running ${files.length} file(s)`);

// Files that time a live peer against its own clock (the official conformance runner starts
// dozens of scenarios at once, each with its own deadlines) run after the others, on their own,
// so that a Chromium test beside them on a 2-core machine cannot starve them.
const runsAlone = (file) => file.startsWith('tests/conformance/');
const batches = [
  { files: files.filter((file) => !runsAlone(file)), concurrency: 2 },
  { files: files.filter(runsAlone), concurrency: 1 },
].filter((batch) => batch.files.length > 0);

const summaryLine = /^\s*ℹ (pass|fail|cancelled|skipped|todo) (\d+)\s*$/;
const deadline = Date.now() + totalTimeoutMs;

/** Runs one batch under node's test runner; adds its summary to the counts. */
async function runBatch({ files: batchFiles, concurrency }) {
  // The spec reporter ends with one summary block per run; the last value of each counter
  // wins, in case a test's own output happens to contain a similar line.
  const summary = {};
  // Each file's time goes to a file of its own beside the spec output, so no line of it can be
  // mistaken for the runner's summary.
  const timesDir = mkdtempSync(path.join(tmpdir(), 'mcp-desk-test-times-'));
  const timesFile = path.join(timesDir, 'times.jsonl');
  const runnerCode = await run(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      `--test-concurrency=${concurrency}`,
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      `--test-reporter=${pathToFileURL(path.join(root, 'scripts', 'test-times.mjs')).href}`,
      `--test-reporter-destination=${timesFile}`,
      ...runnerFlags,
      ...batchFiles,
    ],
    {
      timeoutMs: Math.max(60_000, deadline - Date.now()),
      onStdoutLine: (line) => {
        const match = summaryLine.exec(stripVTControlCharacters(line));
        if (match) summary[match[1]] = Number(match[2]);
      },
    },
  );
  fileTimes.push(...readFileTimes(timesFile, root));
  rmSync(timesDir, { recursive: true, force: true });
  if (summary.pass === undefined) {
    // No summary at all: the runner crashed or was killed before reporting.
    counts.failed += 1;
    problems.push(`the test runner exited (code ${runnerCode}) without a summary`);
    return;
  }
  counts.passed += summary.pass;
  // A cancelled test (its file crashed or timed out) did not pass: it is a failure.
  counts.failed += (summary.fail ?? 0) + (summary.cancelled ?? 0);
  counts.skipped += (summary.skipped ?? 0) + (summary.todo ?? 0);
  if (runnerCode !== 0 && (summary.fail ?? 0) + (summary.cancelled ?? 0) === 0) {
    counts.failed += 1;
    problems.push(`the test runner exited with code ${runnerCode} although no test failed`);
  }
}

for (const batch of batches) {
  if (batches.length > 1) {
    console.log(`test: ${batch.files.length} file(s), ${batch.concurrency} at a time`);
  }
  await phase(batch.concurrency > 1 ? 'tests' : 'tests run alone', () => runBatch(batch));
}
finish();
