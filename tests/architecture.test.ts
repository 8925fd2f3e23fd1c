/**
 * Layering rules from DESIGN.md §1, enforced on every .ts/.tsx file instead of by review:
 * - renderer/ and shared/ import neither `electron` nor any Node builtin;
 * - shared/ imports only `zod` and other files inside shared/;
 * - renderer/ imports nothing from electron/;
 * - electron/host/ never imports `electron` (static, type-only, dynamic or require), nor the
 *   Electron shell, preload or Node entry that sit on top of it;
 * - electron/preload/ (sandboxed) imports no Node builtin and no host, main or headless code.
 * Imports are read from the TypeScript AST, so comments and strings never count.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A module reference found in a source file. */
export interface ImportRef {
  specifier: string;
  line: number;
  kind: 'import' | 'export' | 'dynamic import' | 'require' | 'import =';
}

/** A broken layering rule, located to file:line. */
export interface Violation {
  file: string;
  line: number;
  specifier: string;
  kind: ImportRef['kind'];
  rule: string;
}

type Layer = 'renderer' | 'shared' | 'host' | 'preload';

const scannedFolders: ReadonlyArray<readonly [folder: string, layer: Layer]> = [
  ['renderer', 'renderer'],
  ['shared', 'shared'],
  ['electron/host', 'host'],
  ['electron/preload', 'preload'],
];

const sourceExtensions = /\.(?:ts|tsx|mts|cts)$/;

/** Lists every module reference in a source text: imports, re-exports, import(), require(). */
export function findImports(fileName: string, sourceText: string): ImportRef[] {
  const kind = fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sourceFile = ts.createSourceFile(fileName, sourceText, ts.ScriptTarget.Latest, true, kind);
  const found: ImportRef[] = [];
  const add = (node: ts.Node, specifier: string, refKind: ImportRef['kind']): void => {
    const line = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1;
    found.push({ specifier, line, kind: refKind });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier, node.moduleSpecifier.text, 'import');
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      add(node.moduleSpecifier, node.moduleSpecifier.text, 'export');
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      add(node.moduleReference.expression, node.moduleReference.expression.text, 'import =');
    } else if (ts.isCallExpression(node)) {
      const [first] = node.arguments;
      const literal = first && ts.isStringLiteralLike(first) ? first : undefined;
      if (literal && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        add(literal, literal.text, 'dynamic import');
      } else if (literal && ts.isIdentifier(node.expression) && node.expression.text === 'require') {
        add(literal, literal.text, 'require');
      }
    } else if (ts.isImportTypeNode(node)) {
      // `typeof import('electron')` in a type position couples the layer just the same.
      const argument = node.argument;
      if (ts.isLiteralTypeNode(argument) && ts.isStringLiteral(argument.literal)) {
        add(argument.literal, argument.literal.text, 'dynamic import');
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

const isElectron = (specifier: string): boolean =>
  specifier === 'electron' || specifier.startsWith('electron/');

const isNodeBuiltin = (specifier: string): boolean => specifier.startsWith('node:') || isBuiltin(specifier);

const isRelative = (specifier: string): boolean => specifier.startsWith('./') || specifier.startsWith('../');

/** Repo-relative, forward-slash path a relative specifier points at. */
function resolveRelative(fileRel: string, specifier: string): string {
  return path.posix.normalize(path.posix.join(path.posix.dirname(fileRel), specifier));
}

const isInside = (target: string, folder: string): boolean =>
  target === folder || target.startsWith(`${folder}/`);

/** Which layer a repo-relative path belongs to, if it is one the rules cover. */
export function layerOf(fileRel: string): Layer | undefined {
  const match = scannedFolders.find(([folder]) => isInside(fileRel, folder));
  return match?.[1];
}

/** Explains why one reference breaks the rules of its file's layer, or returns undefined. */
function ruleBroken(layer: Layer, fileRel: string, specifier: string): string | undefined {
  const target = isRelative(specifier) ? resolveRelative(fileRel, specifier) : undefined;
  switch (layer) {
    case 'renderer':
      if (isElectron(specifier)) return 'renderer/ must not import electron';
      if (isNodeBuiltin(specifier)) return 'renderer/ must not import Node builtins';
      if (target && isInside(target, 'electron'))
        return 'renderer/ must not import from electron/ (use HostApi)';
      return undefined;
    case 'shared':
      if (isElectron(specifier)) return 'shared/ must not import electron';
      if (isNodeBuiltin(specifier)) return 'shared/ must not import Node builtins';
      if (target)
        return isInside(target, 'shared')
          ? undefined
          : 'shared/ may import relative files only inside shared/';
      if (specifier === 'zod' || specifier.startsWith('zod/')) return undefined;
      return 'shared/ may import only zod';
    case 'host':
      if (isElectron(specifier)) return 'electron/host/ must not import electron (it runs in plain Node)';
      if (
        target &&
        ['electron/main', 'electron/preload', 'electron/headless', 'renderer'].some((f) =>
          isInside(target, f),
        )
      ) {
        return 'electron/host/ must not import the layers built on top of it';
      }
      return undefined;
    case 'preload':
      if (isNodeBuiltin(specifier)) return 'electron/preload/ is sandboxed and must not import Node builtins';
      if (
        target &&
        ['electron/host', 'electron/main', 'electron/headless', 'renderer'].some((f) => isInside(target, f))
      ) {
        return 'electron/preload/ may import only shared/ and electron';
      }
      return undefined;
    default: {
      const unreachable: never = layer;
      return unreachable;
    }
  }
}

/** Checks one file's text against the rules of the layer its path belongs to. */
export function checkFile(fileRel: string, sourceText: string): Violation[] {
  const layer = layerOf(fileRel);
  if (!layer) return [];
  return findImports(fileRel, sourceText).flatMap((ref) => {
    const rule = ruleBroken(layer, fileRel, ref.specifier);
    return rule ? [{ file: fileRel, line: ref.line, specifier: ref.specifier, kind: ref.kind, rule }] : [];
  });
}

function listSourceFiles(folderAbs: string): string[] {
  let names: string[];
  try {
    names = readdirSync(folderAbs);
  } catch {
    return []; // a layer nobody has written yet has nothing to break
  }
  return names.flatMap((name) => {
    if (name === 'node_modules' || name.startsWith('.')) return [];
    const full = path.join(folderAbs, name);
    if (statSync(full).isDirectory()) return listSourceFiles(full);
    return sourceExtensions.test(name) ? [full] : [];
  });
}

const format = (v: Violation): string => `${v.file}:${v.line}: ${v.kind} '${v.specifier}': ${v.rule}`;

describe('architecture: layering', () => {
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
  });

  it('renderer/, shared/, electron/host/ and electron/preload/ keep to their layer', () => {
    const files = scannedFolders.flatMap(([folder]) => listSourceFiles(path.join(repoRoot, folder)));
    assert.ok(
      files.length > 0,
      'found no source files to check: is the repository layout still renderer/, shared/, electron/?',
    );
    const violations = files.flatMap((abs) => {
      const rel = path.relative(repoRoot, abs).split(path.sep).join('/');
      return checkFile(rel, readFileSync(abs, 'utf8'));
    });
    assert.equal(violations.length, 0, `layering violations:\n${violations.map(format).join('\n')}`);
  });
});
