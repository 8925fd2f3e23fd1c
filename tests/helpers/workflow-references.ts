/**
 * What a GitHub Actions workflow asks of this repository, checked against it: every `npm run X`
 * and `npm test` names a package.json script, every `npm ci --prefix P` a folder with a lockfile,
 * every filter passed to the test runner (`npm test -- F`, `node scripts/test.mjs F`) matches a
 * test file the way scripts/test.mjs matches them, and every repo file run (`node F`, `.ci/F`,
 * `npx BIN`) exists.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseShell, type ParseEntry } from 'shell-quote';
import { parse as parseYaml } from 'yaml';

/** A workflow's `run:` scripts, with where each came from (`job/step`). */
export interface RunScript {
  where: string;
  script: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every `run:` of every step of every job. */
export function runScripts(workflowText: string): RunScript[] {
  const workflow: unknown = parseYaml(workflowText);
  if (!isRecord(workflow) || !isRecord(workflow.jobs)) return [];
  const scripts: RunScript[] = [];
  for (const [jobId, job] of Object.entries(workflow.jobs)) {
    if (!isRecord(job) || !Array.isArray(job.steps)) continue;
    job.steps.forEach((step: unknown, index) => {
      if (!isRecord(step) || typeof step.run !== 'string') return;
      const name = typeof step.name === 'string' ? step.name : `step ${index + 1}`;
      scripts.push({ where: `${jobId}/${name}`, script: step.run });
    });
  }
  return scripts;
}

/** The simple commands of a script: lines (joined at `\`), split at `;`, `&&`, `||`, `|`. */
export function simpleCommands(script: string): string[][] {
  // `${{ … }}` is filled in by Actions before the shell sees it: one opaque word here.
  const text = script.replace(/\$\{\{[^}]*\}\}/g, 'GITHUB_EXPRESSION').replace(/\\\n/g, ' ');
  const commands: string[][] = [];
  for (const line of text.split('\n')) {
    let current: string[] = [];
    const entries: ParseEntry[] = parseShell(line, (name) => `$${name}`);
    for (const entry of entries) {
      if (typeof entry === 'string') current.push(entry);
      else if ('op' in entry && entry.op !== 'glob') {
        if (current.length) commands.push(current);
        current = [];
      }
    }
    if (current.length) commands.push(current);
  }
  return commands;
}

/** Every tests/**\/*.test.ts, repo-relative with `/` (scripts/test.mjs's own walk). */
export function testFiles(root: string, dir = path.join(root, 'tests')): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(root, full);
    return entry.isFile() && entry.name.endsWith('.test.ts')
      ? [path.relative(root, full).split(path.sep).join('/')]
      : [];
  });
}

function packageScripts(dir: string): Record<string, unknown> | null {
  const file = path.join(dir, 'package.json');
  if (!existsSync(file)) return null;
  const manifest: unknown = JSON.parse(readFileSync(file, 'utf8'));
  return isRecord(manifest) && isRecord(manifest.scripts) ? manifest.scripts : {};
}

/** Problems with one `npm …` command (`args` starts after `npm`). */
function npmProblems(root: string, args: string[], tests: string[]): string[] {
  const dashDash = args.indexOf('--');
  const head = dashDash >= 0 ? args.slice(0, dashDash) : args;
  const passed = dashDash >= 0 ? args.slice(dashDash + 1) : [];
  const prefixAt = head.indexOf('--prefix');
  const prefix = prefixAt >= 0 ? head[prefixAt + 1] : undefined;
  const dir = prefix ? path.join(root, prefix) : root;
  const positional = head.filter(
    (arg, index) => !arg.startsWith('-') && (prefixAt < 0 || index !== prefixAt + 1),
  );
  const [command, scriptName] = positional;
  const where = prefix ? `${prefix}/package.json` : 'package.json';
  const scripts = packageScripts(dir);
  if (command === 'ci' || command === 'install' || command === 'i') {
    if (!scripts) return [`npm ${command} --prefix ${prefix}: ${where} does not exist`];
    if (!existsSync(path.join(dir, 'package-lock.json'))) return [`npm ci: no lockfile in ${prefix ?? '.'}`];
    return [];
  }
  let script: string | undefined;
  if (command === 'test' || command === 't') script = 'test';
  else if (command === 'run' || command === 'run-script') script = scriptName;
  if (!script) return [];
  if (!scripts) return [`npm run ${script}: ${where} does not exist`];
  if (!(script in scripts)) return [`npm run ${script}: no "${script}" script in ${where}`];
  return script === 'test' ? filterProblems(passed, tests, `npm test --`) : [];
}

/** scripts/test.mjs runs the test files whose path contains a filter: each must match one. */
function filterProblems(args: string[], tests: string[], shown: string): string[] {
  return args
    .filter((arg) => !arg.startsWith('-') && arg !== 'GITHUB_EXPRESSION')
    .filter((filter) => !tests.some((file) => file.includes(filter)))
    .map((filter) => `${shown} ${filter}: no test file matches "${filter}"`);
}

const commandPrefixes = new Set(['then', 'else', 'do', '!', 'sudo', 'bash', 'sh', 'exec']);

/** Problems with one simple command; wrappers (`.ci/desktop-session npm test`) are seen through. */
function commandProblems(root: string, words: string[], tests: string[]): string[] {
  const problems: string[] = [];
  // The word run as a command (after shell keywords and `bash`/`sudo`): a repo script must exist.
  const commandWord = words.find((word) => !commandPrefixes.has(word));
  if (commandWord && /^(\.\/)?(\.ci|scripts|tools|build)\//.test(commandWord)) {
    if (!existsSync(path.join(root, commandWord))) problems.push(`${commandWord} does not exist`);
  }
  const npmAt = words.indexOf('npm');
  if (npmAt >= 0) problems.push(...npmProblems(root, words.slice(npmAt + 1), tests));
  const npxAt = words.indexOf('npx');
  const bin = npxAt >= 0 ? words.slice(npxAt + 1).find((word) => !word.startsWith('-')) : undefined;
  if (bin && !existsSync(path.join(root, 'node_modules', '.bin', bin))) {
    problems.push(`npx ${bin}: not installed (node_modules/.bin/${bin})`);
  }
  const nodeAt = words.indexOf('node');
  const file = nodeAt >= 0 ? words[nodeAt + 1] : undefined;
  if (file && !file.startsWith('-') && !file.startsWith('$')) {
    if (!existsSync(path.join(root, file))) problems.push(`node ${file}: no such file`);
    else if (file.replace(/^\.\//, '') === 'scripts/test.mjs') {
      problems.push(...filterProblems(words.slice(nodeAt + 2), tests, 'node scripts/test.mjs'));
    }
  }
  return problems;
}

/** Every reference of a workflow that this repository does not satisfy, as readable lines. */
export function workflowReferenceProblems(root: string, workflowText: string): string[] {
  const tests = testFiles(root);
  return runScripts(workflowText).flatMap(({ where, script }) =>
    simpleCommands(script).flatMap((words) =>
      commandProblems(root, words, tests).map((problem) => `${where}: ${problem}`),
    ),
  );
}
