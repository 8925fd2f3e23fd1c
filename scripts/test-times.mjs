// The table of the slowest test files that `npm test` prints at the end of every run: each file's
// time is the wall time of its own process, from start to exit, set-up and tear-down included,
// which is what a file costs a run (scripts/test-pool.mjs measures it).

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
