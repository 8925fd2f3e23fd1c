/**
 * Issue 29: what a comment or a skip message tells the reader to run or read must exist in the
 * repository. Test files once sent people to a shell script that only one machine had.
 * Checked here: in tests/, scripts/ and .ci/, every `.ci/…`, `scripts/…` or `tests/…` path and
 * every `*.sh` named in a comment or on a line that skips, and no absolute `/work/…` path at all.
 * Issue 27 moved the README's sections into docs/: a comment anywhere in the sources or the
 * workflows that names a page (`docs/….md`, `README.md`, `CONTRIBUTING.md`…) with a `#section`
 * must name one the page has, anchors as GitHub makes them.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT } from '../helpers/host-harness.js';
import { markdownFacts } from '../helpers/markdown-links.js';

/** Stand-ins a comment uses to describe a pattern, not a file. */
const PLACEHOLDERS = new Set(['.ci/F']);

const SOURCE = /\.(ts|tsx|mts|mjs|cjs)$/;

/** The files to read: sources under tests/ and scripts/, and the .ci scripts. */
function files(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((e) => {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory()) return e.name === 'node_modules' ? [] : walk(path);
      return SOURCE.test(e.name) ? [path] : [];
    });
  const ci = readdirSync(join(REPO_ROOT, '.ci')).map((name) => `.ci/${name}`);
  return [...walk('tests'), ...walk('scripts'), ...ci];
}

const NAMED = /(?<![\w./-])((?:\.ci|scripts|tests)\/[\w./-]*[\w-]|[\w-]+\.sh)\b/g;
const ABSOLUTE_WORK = /(?<![\w./-])\/work\/[\w./-]+/g;
const COMMENT = /^\s*(\/\/|\*|\/\*|#)/;

/** A named path exists as written, or as the .ts/.tsx file a `.js` import specifier means. */
function exists(path: string): boolean {
  const candidates = [path, path.replace(/\.js$/, '.ts'), path.replace(/\.js$/, '.tsx')];
  return candidates.some((p) => existsSync(join(REPO_ROOT, p)));
}

/** Pages of other repositories a comment cites by their own path. */
const ELSEWHERE = new Set(['docs/tools/mcp-server.md']);

/**
 * A page of docs/ (with or without a section), or a root page with a section, named in a
 * comment: `docs/cli.md`, `CONTRIBUTING.md#releases-and-ci`.
 */
const DOC_SECTION = /(?<![\w./-])(?:(docs\/[\w./-]*\.md)(?:#([\w-]+))?|([A-Z]+\.md)#([\w-]+))/g;

/** Every source file of the layers, tests and scripts, and the workflows. */
function everySource(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((e) => {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory()) return ['node_modules', 'fixtures'].includes(e.name) ? [] : walk(path);
      return SOURCE.test(e.name) ? [path] : [];
    });
  const workflows = readdirSync(join(REPO_ROOT, '.github/workflows')).map((n) => `.github/workflows/${n}`);
  return [...['electron', 'shared', 'renderer', 'tests', 'scripts'].flatMap(walk), ...workflows];
}

describe('what comments and skip messages name', () => {
  it('exists in the repository', () => {
    const problems: string[] = [];
    for (const file of files()) {
      const lines = readFileSync(join(REPO_ROOT, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        const at = `${file}:${i + 1}`;
        for (const m of line.matchAll(ABSOLUTE_WORK)) problems.push(`${at}: a machine's own path ${m[0]}`);
        if (!COMMENT.test(line) && !/skip/i.test(line)) return;
        for (const m of line.matchAll(NAMED)) {
          const named = m[1] ?? '';
          if (!PLACEHOLDERS.has(named) && !exists(named)) problems.push(`${at}: ${named} does not exist`);
        }
      });
    }
    assert.deepEqual(problems, [], 'comments or skip messages name what the repository lacks');
  });

  it('names documentation pages and sections that exist', () => {
    const anchors = new Map<string, Set<string> | null>();
    const anchorsOf = (page: string): Set<string> | null => {
      if (!anchors.has(page)) {
        const path = join(REPO_ROOT, page);
        anchors.set(page, existsSync(path) ? markdownFacts(readFileSync(path, 'utf8')).anchors : null);
      }
      return anchors.get(page) ?? null;
    };
    const problems: string[] = [];
    for (const file of everySource()) {
      readFileSync(join(REPO_ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (!COMMENT.test(line)) return;
          for (const m of line.matchAll(DOC_SECTION)) {
            const page = m[1] ?? m[3] ?? '';
            const anchor = m[2] ?? m[4];
            if (ELSEWHERE.has(page)) continue;
            const known = anchorsOf(page);
            if (!known) problems.push(`${file}:${i + 1}: ${page} does not exist`);
            else if (anchor && !known.has(anchor))
              problems.push(`${file}:${i + 1}: ${page} has no section #${anchor}`);
          }
        });
    }
    assert.deepEqual(problems, [], 'comments name documentation sections that are not there');
  });
});
