// The lint rules are part of the test command (scripts/test.mjs runs `eslint .` first), so they
// are tested like code: ESLint's Node API, with the project's own eslint.config.mjs, is fed
// snippets that break a house rule, and each must be reported under the expected rule id.
// Only the snippets are linted (lintText), so this is quick. Import cycles are not ESLint's job:
// tests/architecture.test.ts finds them, and tests its finder.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { layers, viewsFolder, type Layer } from '../../scripts/layers.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const PROBE = '__lint_probe__';

let eslint: ESLint;

before(() => {
  eslint = new ESLint({
    cwd: repoRoot,
    // The probes are not in any tsconfig, so the type-aware rules (none of which is under test
    // here) are switched off for them; every other rule comes from eslint.config.mjs as is.
    overrideConfig: [{ files: [`**/${PROBE}*`], ...tseslint.configs.disableTypeChecked }],
  });
});

/** The messages ESLint reports for `code` as if it were the file at `fileRel`. */
async function lint(fileRel: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, fileRel) });
  assert.ok(result, `no lint result for ${fileRel}`);
  const fatal = result.messages.filter((m) => m.fatal);
  assert.deepEqual(fatal, [], `ESLint could not parse the probe ${fileRel}`);
  return result.messages;
}

/** Fails unless some message has `ruleId` and (when given) contains `text`. */
function assertReported(messages: Linter.LintMessage[], ruleId: string, text?: string): void {
  const hit = messages.find((m) => m.ruleId === ruleId && (text === undefined || m.message.includes(text)));
  const seen = messages.map((m) => `${m.ruleId}: ${m.message}`).join('\n  ');
  assert.ok(hit, `expected ${ruleId}${text ? ` mentioning "${text}"` : ''}; ESLint said:\n  ${seen}`);
}

/** A real source file of a layer, repo-relative, to import from a probe (first one found). */
function someFileOf(folder: string): string {
  const walk = (rel: string): string | undefined => {
    const entries = readdirSync(path.join(repoRoot, rel), { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    );
    for (const entry of entries) {
      const child = `${rel}/${entry.name}`;
      if (entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) return child;
    }
    for (const entry of entries) {
      const found = entry.isDirectory() ? walk(`${rel}/${entry.name}`) : undefined;
      if (found) return found;
    }
    return undefined;
  };
  const found = walk(folder);
  assert.ok(found, `no source file under ${folder}/`);
  return found;
}

/** The specifier a file at `fromRel` would write to import `targetRel` (with a .js suffix). */
function specifierFor(fromRel: string, targetRel: string): string {
  const relative = path.posix.relative(path.posix.dirname(fromRel), targetRel).replace(/\.tsx?$/, '.js');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/** Lint a probe at `fileRel` whose only import is `targetRel`. */
function lintImportOf(fileRel: string, targetRel: string): Promise<Linter.LintMessage[]> {
  return lint(
    fileRel,
    `import * as other from '${specifierFor(fileRel, targetRel)}';\nexport const probe = other;\n`,
  );
}

const layerNamed = (name: string): Layer => {
  const layer = layers.find((l) => l.name === name);
  assert.ok(layer, `no layer named ${name} in scripts/layers.mjs`);
  return layer;
};

describe('lint: layer rules (scripts/layers.mjs)', () => {
  it('electron/host may not import electron', async () => {
    const messages = await lint(
      `electron/host/${PROBE}.ts`,
      "import { app } from 'electron';\nexport const probe = app;\n",
    );
    assertReported(messages, 'no-restricted-imports', 'layer rule (DESIGN.md §1): electron/host/ (host)');
  });

  it('renderer may import neither node:fs nor a file of electron/host', async () => {
    const file = `renderer/${PROBE}.ts`;
    const hostFile = someFileOf('electron/host');
    const messages = await lint(
      file,
      `import { readFileSync } from 'node:fs';\nimport * as host from '${specifierFor(file, hostFile)}';\n` +
        'export const probe = [readFileSync, host];\n',
    );
    assertReported(messages, 'no-restricted-imports', 'layer rule (DESIGN.md §1): renderer/ (renderer)');
    assertReported(
      messages,
      'import-x/no-restricted-paths',
      'layer rule (DESIGN.md §1): renderer/ (renderer) may import only shared, renderer; not electron/host/',
    );
  });

  it('shared may not import react', async () => {
    const messages = await lint(
      `shared/${PROBE}.ts`,
      "import { useState } from 'react';\nexport const probe = useState;\n",
    );
    assertReported(messages, 'no-restricted-imports', 'layer rule (DESIGN.md §1): shared/ (shared)');
    assertReported(messages, 'no-restricted-imports', 'npm packages other than zod');
  });

  it('every forbidden layer-to-layer import of the table is reported, naming the rule', async () => {
    const checked: string[] = [];
    for (const from of layers) {
      const file = `${from.folder}/${PROBE}.ts`;
      for (const to of layers.filter((l) => !from.mayImport.includes(l.name))) {
        const target = someFileOf(to.folder);
        const messages = await lintImportOf(file, target);
        assertReported(
          messages,
          'import-x/no-restricted-paths',
          `layer rule (DESIGN.md §1): ${from.folder}/ (${from.name}) may import only`,
        );
        checked.push(`${from.name}->${to.name}`);
      }
    }
    // The table forbids at least host->main and renderer->host; an empty loop proves nothing.
    assert.ok(checked.length >= 2, `only checked ${checked.join(', ')}`);
  });

  it('an allowed import is not reported', async () => {
    const host = layerNamed('host');
    const file = `${host.folder}/${PROBE}.ts`;
    const sharedFile = someFileOf(layerNamed('shared').folder);
    const messages = await lintImportOf(file, sharedFile);
    assert.deepEqual(
      messages.map((m) => m.ruleId),
      [],
    );
  });
});

describe('lint: house rules', () => {
  it('`any` is reported', async () => {
    const messages = await lint(`electron/host/${PROBE}.ts`, 'export const probe: any = 1;\n');
    assertReported(messages, '@typescript-eslint/no-explicit-any');
  });

  it('a view folder may not import another view folder', async () => {
    const views = readdirSync(path.join(repoRoot, viewsFolder), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    const [mine, other] = views;
    assert.ok(mine && other, `need two view folders under ${viewsFolder}/`);
    const file = `${viewsFolder}/${mine}/${PROBE}.ts`;
    const target = someFileOf(`${viewsFolder}/${other}`);
    const messages = await lintImportOf(file, target);
    assertReported(
      messages,
      'import-x/no-restricted-paths',
      `view rule (DESIGN.md §6.9): ${viewsFolder}/${mine}/`,
    );
  });
});
