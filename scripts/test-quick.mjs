#!/usr/bin/env node
// `npm run test:quick`: the inner loop, well under a minute and a half on two cores. The unit
// tests (tests/unit/, two files at a time), and beside them Prettier and ESLint on the files that
// differ from where this branch left main (`git merge-base HEAD main`): committed since, changed
// in the working tree, or new and untracked. No build, no typecheck, no integration, e2e or
// conformance test: `npm test` runs those.
//   npm run test:quick                        against main (or origin/main)
//   npm run test:quick -- --base=HEAD         lint only what is not committed yet
// The last line is `N passed, N failed, N skipped`, as with `npm test`; a failed format check
// or lint counts as one failed test each.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createTally, findTestFiles, nodeBin, root, runTestFiles, startChecks } from './test-run.mjs';

const baseArg = process.argv.slice(2).find((arg) => arg.startsWith('--base='));
const lintable = /\.(?:ts|tsx|mts|cts|js|mjs|cjs)$/;

/** Runs git in the repository; its trimmed output, or null when it fails. */
function git(...args) {
  try {
    return execFileSync('git', args, {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return null;
  }
}

/** The commit the changed files are measured from, and how it was found. */
function base() {
  if (baseArg)
    return { commit: git('rev-parse', '--verify', baseArg.slice('--base='.length)), from: baseArg };
  for (const branch of ['main', 'origin/main']) {
    const commit = git('merge-base', 'HEAD', branch);
    if (commit) return { commit, from: `git merge-base HEAD ${branch}` };
  }
  return { commit: git('rev-parse', '--verify', 'HEAD'), from: 'HEAD (no main branch here)' };
}

/** Files that differ from `commit` in the working tree, plus untracked ones; existing files only. */
function changedFiles(commit) {
  const changed = git('diff', '--name-only', '--diff-filter=d', commit) ?? '';
  const untracked = git('ls-files', '--others', '--exclude-standard') ?? '';
  const names = new Set([...changed.split('\n'), ...untracked.split('\n')].filter(Boolean));
  return [...names].filter((name) => existsSync(path.join(root, name))).sort();
}

const tally = createTally({ slowest: 5 });
const { commit, from } = base();
if (!commit) {
  console.log(`test:quick: ${from} names no commit`);
  tally.fail(`the base ${from} names no commit`);
  tally.finish();
}
const changed = changedFiles(commit);
const toLint = changed.filter((file) => lintable.test(file));
console.log(
  `test:quick: ${changed.length} file(s) changed since ${commit.slice(0, 10)} (${from}); ${toLint.length} to lint`,
);

const [prettier, prettierArgs] = nodeBin('prettier', 'bin', 'prettier.cjs');
const [eslint, eslintArgs] = nodeBin('eslint', 'bin', 'eslint.js');
const checks = [];
if (changed.length > 0) {
  checks.push({
    name: 'format check',
    shown: `prettier --check (${changed.length} changed files)`,
    command: prettier,
    // Files Prettier has no parser for, or that .prettierignore lists, are passed over.
    args: [...prettierArgs, '--check', '--ignore-unknown', '--cache', ...changed],
  });
}
if (toLint.length > 0) {
  checks.push({
    name: 'lint',
    shown: `eslint --max-warnings=0 (${toLint.length} changed files)`,
    command: eslint,
    // Files the config ignores (out/, tools/...) are passed over without a warning.
    args: [...eslintArgs, '--max-warnings=0', '--no-warn-ignored', ...toLint],
  });
}
// The checks run beside the tests: each is one process, and the tests leave a core idle often.
const checksDone = startChecks(tally, checks);

await tally.phase('unit tests', () =>
  runTestFiles(tally, { files: findTestFiles(path.join(root, 'tests', 'unit')), concurrency: 2 }),
);
const print = await tally.phase('waiting for lint', () => checksDone);
await print();
tally.finish();
