// What `npm test` (scripts/test.mjs) and `npm run test:quick` (scripts/test-quick.mjs) share:
// running a command, finding test files, running them under node's own test runner, and the
// tally whose last line, `N passed, N failed, N skipped`, is the last thing either prints.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { setPriority } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { runFilePool } from './test-pool.mjs';
import { slowestTable } from './test-times.mjs';

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

/** The most one test file may take (the slowest take about two minutes on two cores). */
const FILE_TIMEOUT_MS = 10 * 60_000;
/** The spec reporter's closing block (`ℹ tests 4` … `ℹ duration_ms 12.3`), kept out of the log. */
const closingBlockLine = /^\s*ℹ (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) [\d.]+\s*$/;

/**
 * Runs `files` in that order, `concurrency` at a time, each in its own process under node's test
 * runner (scripts/test-pool.mjs: at most two e2e files at once while others wait, a file that
 * hangs is stopped after ten minutes, what a file leaves running is ended). Prints each file's
 * output whole when it ends, then one line of its counts; adds the counts and each file's time to
 * `tally`. Stops what still runs after `timeoutMs`.
 */
export async function runTestFiles(tally, { files, concurrency, runnerFlags = [], timeoutMs, env }) {
  const { counts } = tally;
  const notStarted = await runFilePool({
    files,
    concurrency,
    maxE2e: Math.max(1, concurrency - 1),
    args: [
      '--import',
      'tsx',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      // A file whose tests are done exits even if a handle it forgot keeps its event loop alive.
      '--test-force-exit',
      ...runnerFlags,
    ],
    cwd: root,
    env: { ...testEnv, ...env },
    fileTimeoutMs: FILE_TIMEOUT_MS,
    deadline: Date.now() + (timeoutMs ?? 24 * 60 * 60_000),
    runId: `${process.pid}-${Date.now()}`,
    onDone: ({ file, ms, code, output, summary, timedOut, leftovers }) => {
      const kept = output
        .trimEnd()
        .split('\n')
        .filter((line) => !closingBlockLine.test(stripVTControlCharacters(line)));
      if (kept.length > 0) console.log(kept.join('\n'));
      const failed = (summary.fail ?? 0) + (summary.cancelled ?? 0);
      const skipped = (summary.skipped ?? 0) + (summary.todo ?? 0);
      const seconds = (ms / 1000).toFixed(1);
      console.log(
        `test: ${file}: ${summary.pass ?? 0} passed, ${failed} failed, ${skipped} skipped (${seconds} s)`,
      );
      counts.passed += summary.pass ?? 0;
      // A cancelled test (its file crashed or timed out) did not pass: it is a failure.
      counts.failed += failed;
      counts.skipped += skipped;
      if (timedOut) tally.fail(`${file}: ${timedOut}`);
      else if (summary.pass === undefined) tally.fail(`${file} exited (code ${code}) without a summary`);
      else if (code !== 0 && failed === 0)
        tally.fail(`${file} exited with code ${code} although no test failed`);
      if (leftovers.length > 0) {
        console.log(
          `test: ${file} left ${leftovers.length} process(es) running; ended: ${leftovers.join(', ')}`,
        );
      }
      tally.fileTimes.push({ file, ms, passed: failed === 0 && !timedOut && code === 0 });
    },
  });
  if (notStarted.length > 0) tally.fail(`${notStarted.length} file(s) never started: the run's time ran out`);
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
