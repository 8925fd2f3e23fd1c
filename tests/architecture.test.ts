/**
 * The layer table of DESIGN.md §1, enforced on every .ts/.tsx file instead of by review. The
 * table is scripts/layers.mjs, the very one eslint.config.mjs turns into import rules, so lint and
 * this test agree; this test reads it independently (tests/helpers/layer-check.ts), so a lint
 * config that stops matching files cannot hide a violation. It also fails on any import cycle in
 * electron/, renderer/, shared/, tests/ and scripts/, type-only imports and re-exports included,
 * naming the path: the one cycle check of the project (ESLint's import-x/no-cycle, which skipped
 * type-only imports, cost over half of the lint run and was dropped for it).
 * Imports are read from the TypeScript AST, so comments and strings never count.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { layers } from '../scripts/layers.mjs';
import { buildGraph, findCycles, listSourceFiles, type ImportGraph } from './helpers/import-graph.js';
import { checkFile, formatViolation, layerOf } from './helpers/layer-check.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Every source file of every layer, repo-relative -> text. */
function readSources(): Map<string, string> {
  const files = layers.flatMap((layer) => listSourceFiles(repoRoot, layer.folder));
  return new Map(files.map((file) => [file, readFileSync(path.join(repoRoot, file), 'utf8')]));
}

const sources = readSources();

/** The layers' sources plus the tests' and scripts' own: everything the cycle check covers. */
function readCycleSources(): Map<string, string> {
  const extra = ['tests', 'scripts'].flatMap((folder) => listSourceFiles(repoRoot, folder));
  return new Map([
    ...sources,
    ...extra.map((file): [string, string] => [file, readFileSync(path.join(repoRoot, file), 'utf8')]),
  ]);
}

const lines = (cycles: ReturnType<typeof findCycles>): string =>
  cycles.map((cycle) => `  ${cycle.path.join(' -> ')}`).join('\n');

describe('architecture: the layer table', () => {
  it('the checker reports forbidden imports (self-test)', () => {
    const rendererFake = [
      '// require("electron") in a comment does not count',
      "import { readFileSync } from 'node:fs';",
      "import path from 'path';",
      "import { ipcRenderer } from 'electron';",
      "import { startHost } from '../../electron/host/index.js';",
      "import { contract } from '../../shared/ipc/contract.js';",
      "import { useState } from 'react';",
    ].join('\n');
    const rendererFound = checkFile('renderer/screens/fake.tsx', rendererFake).map(
      (v) => `${v.line}:${v.specifier}`,
    );
    assert.deepEqual(rendererFound, ['2:node:fs', '3:path', '4:electron', '5:../../electron/host/index.js']);

    const sharedFake = [
      "import { z } from 'zod';",
      "import type { Foo } from './domain/foo.js';",
      "export * from '../../electron/host/x.js';",
      "import { EventEmitter } from 'events';",
      "import React from 'react';",
      "import { z as z4 } from 'zod/v4';",
    ].join('\n');
    const sharedFound = checkFile('shared/ipc/fake.ts', sharedFake).map((v) => `${v.line}:${v.specifier}`);
    assert.deepEqual(sharedFound, ['3:../../electron/host/x.js', '4:events', '5:react']);

    const hostFake = [
      "import { spawn } from 'node:child_process';",
      "import type { BrowserWindow } from 'electron';",
      "const electron = await import('electron');",
      "const { app } = require('electron/main');",
      "import { mainWindow } from '../../main/window.js';",
      "type Shell = typeof import('electron').shell;",
      "import { Client } from '@modelcontextprotocol/client';",
    ].join('\n');
    const hostFound = checkFile('electron/host/connection/fake.ts', hostFake).map(
      (v) => `${v.line}:${v.kind}`,
    );
    assert.deepEqual(hostFound, [
      '2:import',
      '3:dynamic import',
      '4:require',
      '5:import',
      '6:dynamic import',
    ]);

    assert.deepEqual(checkFile('electron/main/fake.ts', "import { app } from 'electron';"), []);
    assert.deepEqual(
      checkFile('electron/main/fake.ts', "import { x } from '../headless/cli.js';").map((v) => v.line),
      [1],
      'main may not import headless',
    );
    assert.deepEqual(
      checkFile(
        'electron/headless/fake.ts',
        "import { app } from 'electron';\nimport '../main/index.js';",
      ).map((v) => v.line),
      [1, 2],
      'headless runs in plain Node: neither electron nor the shell',
    );
    assert.deepEqual(
      checkFile('electron/preload/fake.ts', "import 'node:fs';\nimport '../host/mcp-host.js';").map(
        (v) => v.line,
      ),
      [1, 2],
      'preload is sandboxed: no builtins, no host',
    );
    assert.deepEqual(
      checkFile(
        'renderer/views/audit/fake.tsx',
        "import '../chat/chat-view.js';\nimport '../../hooks/x.js';",
      ).map((v) => `${v.line}:${v.rule.slice(0, 9)}`),
      ['1:view rule'],
      'a view folder may not import another view folder',
    );
    assert.deepEqual(
      checkFile('renderer/app.tsx', "import { ChatView } from './views/chat/chat-view.js';"),
      [],
      'the app shell may import the views',
    );
  });

  it('covers every folder of electron/, and renderer/ and shared/', () => {
    const electronFolders = readdirSync(path.join(repoRoot, 'electron'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `electron/${entry.name}`);
    const missing = [...electronFolders, 'renderer', 'shared'].filter(
      (folder) => layerOf(`${folder}/x.ts`)?.folder !== folder,
    );
    assert.deepEqual(missing, [], 'every source folder needs a row in scripts/layers.mjs');
    for (const layer of layers) {
      assert.ok(
        [...sources.keys()].some((file) => layerOf(file) === layer),
        `no source file found in ${layer.folder}/: is the layout still what scripts/layers.mjs says?`,
      );
    }
  });

  const violations = [...sources].flatMap(([file, text]) => checkFile(file, text));

  it('every file keeps to its layer', () => {
    const broken = violations.filter((v) => !v.rule.startsWith('view rule'));
    assert.equal(broken.length, 0, `layering violations:\n${broken.map(formatViolation).join('\n')}`);
  });

  it('no view folder imports another view folder', () => {
    const broken = violations.filter((v) => v.rule.startsWith('view rule'));
    assert.equal(broken.length, 0, `view folder violations:\n${broken.map(formatViolation).join('\n')}`);
  });
});

describe('architecture: import cycles', () => {
  it('the cycle finder sees type-only imports, re-exports and dynamic imports (self-test)', () => {
    const fake = new Map([
      ['shared/a.ts', "import type { B } from './b.js';\nexport type A = B;"],
      ['shared/b.ts', "export * from './c.js';"],
      ['shared/c.ts', "export const c = () => import('./a.js');"],
      ['shared/d.ts', "import { c } from './c.js';\nimport { e } from './e/index.js';"],
      ['shared/e/index.ts', "export { d } from '../d';"],
      ['shared/leaf.ts', "import { z } from 'zod';\nimport { c } from './c.js';"],
      ['shared/self.ts', "export * as me from './self.js';"],
    ]);
    const cycles = findCycles(buildGraph(fake));
    assert.deepEqual(
      cycles.map((cycle) => cycle.path.join(' -> ')),
      [
        'shared/a.ts -> shared/b.ts -> shared/c.ts -> shared/a.ts',
        'shared/d.ts -> shared/e/index.ts -> shared/d.ts',
        'shared/self.ts -> shared/self.ts',
      ],
    );
    assert.deepEqual(cycles[0]?.files, ['shared/a.ts', 'shared/b.ts', 'shared/c.ts']);
    assert.deepEqual(findCycles(buildGraph(new Map([...fake].filter(([f]) => f !== 'shared/c.ts')))), [
      {
        files: ['shared/d.ts', 'shared/e/index.ts'],
        path: ['shared/d.ts', 'shared/e/index.ts', 'shared/d.ts'],
      },
      { files: ['shared/self.ts'], path: ['shared/self.ts', 'shared/self.ts'] },
    ]);
  });

  it('the cycle finder reports two test files that import each other (self-test)', () => {
    const fake = new Map([
      ['tests/cycle-a.ts', "import { b } from './cycle-b.js';\nexport const a = (): number => b() + 1;\n"],
      ['tests/cycle-b.ts', "import { a } from './cycle-a.js';\nexport const b = (): number => a() - 1;\n"],
    ]);
    assert.deepEqual(findCycles(buildGraph(fake)), [
      {
        files: ['tests/cycle-a.ts', 'tests/cycle-b.ts'],
        path: ['tests/cycle-a.ts', 'tests/cycle-b.ts', 'tests/cycle-a.ts'],
      },
    ]);
  });

  it('the cycle finder reports one tangle once, with a shortest path through its first file (self-test)', () => {
    // Two loops through x (x -> y -> x, x -> p -> q -> x) make one tangle, reported once.
    const graph = new Map([
      ['x', ['p', 'y']],
      ['y', ['x']],
      ['p', ['q']],
      ['q', ['x']],
    ]);
    assert.deepEqual(findCycles(graph), [{ files: ['p', 'q', 'x', 'y'], path: ['p', 'q', 'x', 'p'] }]);
  });

  it('electron/, renderer/, shared/, tests/ and scripts/ have no import cycle (type-only imports included)', () => {
    const graph = buildGraph(readCycleSources());
    assert.ok(graph.size > sources.size, 'found no test or script source files');
    const cycles = findCycles(graph);
    assert.equal(
      cycles.length,
      0,
      `import cycles (each a shortest path around one tangle):\n${lines(cycles)}`,
    );
  });

  it("electron/host's areas (its first-level folders) import one another without a loop", () => {
    // A folder loop (auth -> mcp-host -> connection -> auth was one) hides a responsibility in
    // the wrong place even when no file cycle exists: collapse files to their area and look again.
    // Files at electron/host's top (compose.ts, mcp-host.ts, router.ts) wire the areas: no area.
    const areaOf = (file: string): string | undefined => /^electron\/host\/([^/]+)\//.exec(file)?.[1];
    const areas: ImportGraph = new Map();
    for (const [file, targets] of buildGraph(sources)) {
      const from = areaOf(file);
      if (!from) continue;
      const edges = areas.get(from) ?? [];
      for (const target of targets) {
        const to = areaOf(target);
        if (to && to !== from && !edges.includes(to)) edges.push(to);
      }
      areas.set(from, edges);
    }
    assert.ok(areas.size > 5, `found only ${areas.size} areas under electron/host`);
    const loops = findCycles(areas);
    assert.equal(loops.length, 0, `folder loops in electron/host:\n${lines(loops)}`);
  });
});
