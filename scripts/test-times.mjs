// How long each test file took, for the table `npm test` prints at the end of every run. The
// reporter half runs inside `node --test` (--test-reporter=scripts/test-times.mjs): for each file
// the runner finished it writes one JSON line {file, ms, passed}: the wall time of the file's own
// process, from start to exit, set-up and tear-down included, which is what a file costs a run.
// The table half runs in scripts/test.mjs and reads those lines back.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** node:test reporter: one line per finished test file (the runner names its file-level test after the path). */
export default async function* fileTimesReporter(events) {
  for await (const event of events) {
    if (event.type !== 'test:complete' || !event.data.file || event.data.name !== event.data.file) continue;
    const ms = Math.round(event.data.details?.duration_ms ?? 0);
    yield `${JSON.stringify({ file: event.data.file, ms, passed: event.data.details?.passed !== false })}\n`;
  }
}

/** The {file, ms, passed} lines a reporter wrote to `destination` (none when it wrote nothing). */
export function readFileTimes(destination, root) {
  let text = '';
  try {
    text = readFileSync(destination, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line.trim().startsWith('{'))
    .map((line) => JSON.parse(line))
    .map((row) => ({ ...row, file: path.relative(root, row.file).split(path.sep).join('/') }));
}

/** The table of the `count` slowest files, one line each, seconds right-aligned. */
export function slowestTable(times, count = 15) {
  const rows = [...times].sort((a, b) => b.ms - a.ms).slice(0, count);
  const total = times.reduce((sum, row) => sum + row.ms, 0);
  return [
    `test: slowest ${rows.length} of ${times.length} files (each file's process, start to exit; ${Math.round(total / 1000)} s in all)`,
    ...rows.map(
      (row) => `${(row.ms / 1000).toFixed(1).padStart(8)} s  ${row.file}${row.passed ? '' : '  (failed)'}`,
    ),
  ];
}
