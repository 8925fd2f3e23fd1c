// What `npm test` (scripts/test.mjs) and `npm run test:quick` (scripts/test-quick.mjs) share:
// running a command, finding test files, running them under node's own test runner, and the
// tally whose last line, `N passed, N failed, N skipped`, is the last thing either prints.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { readFileTimes, slowestTable } from './test-times.mjs';

/** The repository root. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** npm's executable name on this platform. */
export const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const testEnv = {
  ...process.env,
  // Nothing in a test run may fetch a browser or an Electron build from a CDN.
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
  ELECTRON_SKIP_BINARY_DOWNLOAD: '1',
};

/**
 * Runs a command; resolves to its exit code (1 if it could not start). Output is inherited, or
 * with `capture` collected into `capture.text` so checks that run side by side do not interleave.
 * `niceness` lowers its CPU priority (and its children's) so that it takes what others leave;
 * `env` adds to the environment.
 */
export function run(command, args, { onStdoutLine, timeoutMs, capture, niceness, env } = {}) {
  return new Promise((resolve) => {
    const piped = capture ? 'pipe' : 'inherit';
    const child = spawn(command, args, {
      cwd: root,
      env: { ...testEnv, ...env },
      stdio: ['ignore', onStdoutLine || capture ? 'pipe' : 'inherit', piped],
      shell: process.platform === 'win32',
    });
    if (niceness && child.pid) {
      try {
        setPriority(child.pid, niceness);
      } catch {
        // Not allowed here: it runs at normal priority, which is only slower for the others.
      }
    }
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

/** Every *.test.ts under `dir`, repo-relative with forward slashes, sorted. */
export function findTestFiles(dir) {
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

/** `[node, [script]]` for a package's bin script, run with this Node. */
export function nodeBin(...parts) {
  return [process.execPath, [path.join(root, 'node_modules', ...parts)]];
}

/**
 * Counts, problems, each file's time and each phase's time of one run; `finish()` prints the
 * slowest files, the phases and the problems, then the summary line, and exits.
 */
export function createTally({ slowest = 15 } = {}) {
  const started = Date.now();
  const tally = {
    counts: { passed: 0, failed: 0, skipped: 0 },
    problems: [],
    /** {file, ms, passed} per test file. */
    fileTimes: [],
    /** "name N s" per phase. */
    phases: [],
    /** Counts a failed step (a check, the build) as one failed test, with a line saying where to look. */
    fail(problem) {
      tally.counts.failed += 1;
      tally.problems.push(problem);
    },
    /** Runs `step` and records its wall time as phase `name`. */
    async phase(name, step) {
      const phaseStarted = Date.now();
      try {
        return await step();
      } finally {
        tally.phases.push(`${name} ${Math.round((Date.now() - phaseStarted) / 1000)} s`);
      }
    },
    finish() {
      const { counts, problems, fileTimes, phases } = tally;
      if (fileTimes.length > 0) for (const line of slowestTable(fileTimes, slowest)) console.log(line);
      phases.push(`in all ${Math.round((Date.now() - started) / 1000)} s`);
      console.log(`test: time: ${phases.join(', ')}`);
      for (const problem of problems) console.log(`test: ${problem}`);
      console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
      process.exit(counts.failed > 0 || problems.length > 0 ? 1 : 0);
    },
  };
  return tally;
}

const summaryLine = /^\s*ℹ (pass|fail|cancelled|skipped|todo) (\d+)\s*$/;

/**
 * Runs `files` under node's test runner, `concurrency` files at a time, each in its own process;
 * adds the summary and each file's time to `tally`.
 */
export async function runTestFiles(tally, { files, concurrency, runnerFlags = [], timeoutMs, env }) {
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
      ...files,
    ],
    {
      timeoutMs,
      env,
      onStdoutLine: (line) => {
        const match = summaryLine.exec(stripVTControlCharacters(line));
        if (match) summary[match[1]] = Number(match[2]);
      },
    },
  );
  tally.fileTimes.push(...readFileTimes(timesFile, root));
  rmSync(timesDir, { recursive: true, force: true });
  if (summary.pass === undefined) {
    // No summary at all: the runner crashed or was killed before reporting.
    tally.fail(`the test runner exited (code ${runnerCode}) without a summary`);
    return;
  }
  const { counts } = tally;
  counts.passed += summary.pass;
  // A cancelled test (its file crashed or timed out) did not pass: it is a failure.
  counts.failed += (summary.fail ?? 0) + (summary.cancelled ?? 0);
  counts.skipped += (summary.skipped ?? 0) + (summary.todo ?? 0);
  if (runnerCode !== 0 && (summary.fail ?? 0) + (summary.cancelled ?? 0) === 0) {
    tally.fail(`the test runner exited with code ${runnerCode} although no test failed`);
  }
}

/**
 * Starts `checks` ({name, shown, command, args, niceness?}) together, their output held back;
 * resolves to a function that prints one block per check, in order, and counts each failure in
 * `tally`.
 */
export function startChecks(tally, checks) {
  const started = Date.now();
  const running = checks.map((check) => {
    const capture = { text: '' };
    const done = run(check.command, check.args, { capture, niceness: check.niceness }).then((code) => ({
      code,
      seconds: ((Date.now() - started) / 1000).toFixed(1),
    }));
    return { check, capture, done };
  });
  return Promise.all(running.map((entry) => entry.done)).then(() => async () => {
    for (const { check, capture, done } of running) {
      const { code, seconds } = await done;
      console.log(`\n── ${check.name}: ${check.shown} ── ${code === 0 ? 'passed' : 'FAILED'} (${seconds} s)`);
      if (capture.text.trim()) console.log(capture.text.trimEnd());
      if (code !== 0) {
        tally.fail(`${check.name} FAILED (see the "${check.name}" block above; \`${check.shown}\`)`);
      }
    }
    console.log('');
  });
}
