// The pool `npm test` runs test files in: each file in a process of its own (node's test runner,
// spec reporter), `concurrency` at a time, started in the order given. Node's own `--test` runner
// sorts the files by name whatever order it is handed, which started every e2e file (each a
// browser, a host and its servers) before any other, three at a time on two cores; and it has no
// limit on a file, so one hung file held the whole run until the total timeout. Here:
//   - files start in the order given, and no more than `maxE2e` e2e files run at once while other
//     files wait;
//   - a file that runs past `fileTimeoutMs` is stopped and fails, with a line saying so;
//   - each file's processes carry a marker of their own, and whatever outlives the file (a server,
//     a host, a browser it did not stop) is ended when it exits, and named;
//   - each file's output is printed whole when it ends, so files never interleave.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';

/** The environment variable that marks every process a test file starts (see endLeftovers). */
export const RUN_MARKER_ENV = 'MCP_DESK_TEST_RUN';

const summaryLine = /^\s*ℹ (pass|fail|cancelled|skipped|todo) (\d+)\s*$/;

/**
 * Ends (SIGKILL) every process still running whose environment holds `RUN_MARKER_ENV=value`.
 * Linux only (it reads /proc); elsewhere it does nothing. Returns "name (pid)" of each one ended.
 */
export function endLeftovers(value) {
  if (process.platform !== 'linux') return [];
  const marker = `${RUN_MARKER_ENV}=${value}`;
  let pids = [];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const ended = [];
  for (const pid of pids) {
    if (Number(pid) === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(marker)) continue;
      const name = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      process.kill(Number(pid), 'SIGKILL');
      ended.push(`${name} (${pid})`);
    } catch {
      // Gone meanwhile, or not ours to read: nothing to end.
    }
  }
  return ended;
}

/** The counters of the spec reporter's closing block in `text` (the last value of each wins). */
function summaryOf(text) {
  const summary = {};
  for (const line of text.split('\n')) {
    const match = summaryLine.exec(stripVTControlCharacters(line));
    if (match) summary[match[1]] = Number(match[2]);
  }
  return summary;
}

/**
 * Runs one file: resolves to {file, ms, code, output, summary, timedOut, leftovers}. It is stopped
 * (SIGKILL, with everything it started) after `fileTimeoutMs`, or when `stopAll` fires.
 */
function runFile(file, { args, cwd, env, fileTimeoutMs, marker, stopAll }) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [...args, file], {
      cwd,
      env: { ...env, [RUN_MARKER_ENV]: marker },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => (output += chunk));
    }
    let timedOut = null;
    const stop = (why) => {
      if (timedOut) return;
      timedOut = why;
      child.kill('SIGKILL');
      endLeftovers(marker);
    };
    const timer = setTimeout(
      () => stop(`still running after ${Math.round(fileTimeoutMs / 60_000)} min; stopped`),
      fileTimeoutMs,
    );
    const onStopAll = () => stop('stopped with the run (its total time ran out)');
    stopAll.add(onStopAll);
    const finish = (code) => {
      clearTimeout(timer);
      stopAll.delete(onStopAll);
      // The file's own processes are ended once it exits: nothing it started may outlive it.
      const leftovers = endLeftovers(marker);
      resolve({
        file,
        ms: Date.now() - started,
        code,
        output,
        summary: summaryOf(output),
        timedOut,
        leftovers,
      });
    };
    child.on('error', (error) => {
      output += `\ncould not start: ${error.message}\n`;
      finish(1);
    });
    child.on('close', (code, signal) => finish(code ?? (signal ? 1 : 0)));
  });
}

/**
 * Runs `files` (in this order) `concurrency` at a time, at most `maxE2e` of them from tests/e2e/
 * while other files wait; `onDone(result)` is called as each ends (see runFile). Stops every file
 * still running at `deadline` (a Date.now() value). Resolves when all are done.
 */
export async function runFilePool({
  files,
  concurrency,
  maxE2e = concurrency,
  args,
  cwd,
  env,
  fileTimeoutMs,
  deadline,
  runId,
  onDone,
}) {
  const waiting = [...files];
  const running = new Set();
  const stopAll = new Set();
  const isE2e = (file) => file.startsWith('tests/e2e/');
  const deadlineTimer = setTimeout(
    () => [...stopAll].forEach((stop) => stop()),
    Math.max(0, deadline - Date.now()),
  );
  let index = 0;
  /** The next file to start: the first waiting one, passing over e2e files while enough run. */
  const next = () => {
    const e2eRunning = [...running].filter(isE2e).length;
    const at = waiting.findIndex((file) => !isE2e(file) || e2eRunning < maxE2e);
    // Only e2e files are left: they take every slot.
    return waiting.splice(at === -1 ? 0 : at, 1)[0];
  };
  await new Promise((resolve) => {
    const fill = () => {
      while (running.size < concurrency && waiting.length > 0 && Date.now() < deadline) {
        const file = next();
        running.add(file);
        index += 1;
        void runFile(file, { args, cwd, env, fileTimeoutMs, marker: `${runId}-${index}`, stopAll }).then(
          (result) => {
            running.delete(file);
            onDone(result);
            fill();
          },
        );
      }
      if (running.size === 0) resolve();
    };
    fill();
  });
  clearTimeout(deadlineTimer);
  // Files never started because the run's time ran out.
  return waiting;
}
