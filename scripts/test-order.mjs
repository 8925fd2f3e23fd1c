// The order `npm test` hands files to node's runner, which starts them in that order as slots
// free up. An e2e file keeps a Chromium page, a browser-mode host and its servers busy; most
// integration files wait on servers and timeouts instead. So the two are interleaved, one e2e
// file to two others, and a slot rarely holds two browsers at once. Within each group the files
// that took longest in the previous run on this machine start first (test-results/test-times.json,
// written at the end of every run), so that no long file starts last and runs on alone; without
// that file (a clean checkout, as in CI) the order is alphabetical. Unit tests and the other
// short files come last and fill the slots as the long ones finish.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The previous runs' time of each file, repo-relative path -> ms. */
function previousTimes(historyFile) {
  if (!existsSync(historyFile)) return new Map();
  try {
    return new Map(Object.entries(JSON.parse(readFileSync(historyFile, 'utf8'))));
  } catch {
    return new Map();
  }
}

/** `files` in the order to start them (see the top of this file). */
export function startOrder(files, historyFile) {
  const times = previousTimes(historyFile);
  // A file with no time yet is new or renamed: start it early, it may be long.
  const longestFirst = (list) =>
    [...list].sort((a, b) => (times.get(b) ?? Infinity) - (times.get(a) ?? Infinity));
  const e2e = longestFirst(files.filter((file) => file.startsWith('tests/e2e/')));
  const integration = longestFirst(files.filter((file) => file.startsWith('tests/integration/')));
  const rest = longestFirst(files.filter((file) => !e2e.includes(file) && !integration.includes(file)));
  const order = [];
  while (e2e.length > 0 || integration.length > 0) {
    if (e2e.length > 0) order.push(e2e.shift());
    order.push(...integration.splice(0, 2));
  }
  return [...order, ...rest];
}

/** Adds this run's file times ({file, ms}) to the history the next run orders by. */
export function saveTimes(historyFile, fileTimes) {
  const times = previousTimes(historyFile);
  for (const { file, ms } of fileTimes) times.set(file, ms);
  mkdirSync(path.dirname(historyFile), { recursive: true });
  writeFileSync(historyFile, `${JSON.stringify(Object.fromEntries([...times].sort()), null, 1)}\n`);
}
