// The architecture test's view of the source: every module reference of a file (read from the
// TypeScript AST, so comments and strings never count), the file graph those references make,
// and the cycles in it. Type-only imports and re-exports are edges too: they couple files just
// the same, and a type cycle is how a value cycle starts.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** A module reference found in a source file. */
export interface ImportRef {
  specifier: string;
  line: number;
  kind: 'import' | 'export' | 'dynamic import' | 'require' | 'import =';
}

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

/** True for `./x` and `../x`: a file of this repository rather than a package. */
export const isRelative = (specifier: string): boolean =>
  specifier.startsWith('./') || specifier.startsWith('../');

/** Repo-relative, forward-slash path a relative specifier points at (before extension lookup). */
export function resolveRelative(fileRel: string, specifier: string): string {
  return path.posix.normalize(path.posix.join(path.posix.dirname(fileRel), specifier));
}

const sourceExtensions = /\.(?:ts|tsx|mts|cts)$/;

/**
 * The source file a relative specifier names, among `known` files, the way the bundler and tsc
 * resolve it (`./x.js` is `./x.ts` or `./x.tsx`; a folder is its index); undefined if none.
 */
export function resolveSourceFile(
  fileRel: string,
  specifier: string,
  known: ReadonlySet<string>,
): string | undefined {
  const target = resolveRelative(fileRel, specifier);
  const stem = target.replace(/\.(?:js|jsx|mjs|cjs)$/, '');
  const candidates = [
    target,
    ...['.ts', '.tsx', '.mts', '.cts'].map((ext) => `${stem}${ext}`),
    ...['index.ts', 'index.tsx'].map((index) => `${target}/${index}`),
  ];
  return candidates.find((candidate) => known.has(candidate));
}

/** Every .ts/.tsx source file under a repo-relative folder, repo-relative with forward slashes. */
export function listSourceFiles(repoRoot: string, folderRel: string): string[] {
  const folderAbs = path.join(repoRoot, folderRel);
  if (!existsSync(folderAbs)) return [];
  return readdirSync(folderAbs)
    .sort()
    .flatMap((name) => {
      if (name === 'node_modules' || name.startsWith('.')) return [];
      const rel = `${folderRel}/${name}`;
      if (statSync(path.join(repoRoot, rel)).isDirectory()) return listSourceFiles(repoRoot, rel);
      return sourceExtensions.test(name) && !name.endsWith('.d.ts') ? [rel] : [];
    });
}

/** File -> the files it references (sorted, no duplicates), for the given sources. */
export type ImportGraph = Map<string, string[]>;

/** Builds the file graph of `sources` (repo-relative path -> text) from their relative references. */
export function buildGraph(sources: ReadonlyMap<string, string>): ImportGraph {
  const known = new Set(sources.keys());
  const graph: ImportGraph = new Map();
  for (const [file, text] of sources) {
    const targets = new Set<string>();
    for (const ref of findImports(file, text)) {
      if (!isRelative(ref.specifier)) continue;
      const target = resolveSourceFile(file, ref.specifier, known);
      if (target) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** The strongly connected components of a graph with more than one file, or a file importing itself. */
function tangledComponents(graph: ImportGraph): string[][] {
  // Tarjan's algorithm, iterative so a deep import chain cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; edge: number }[] = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++];
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      for (;;) {
        const member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
        if (member === frame.node) break;
      }
      const selfLoop = component.length === 1 && edges.includes(frame.node);
      if (component.length > 1 || selfLoop) components.push(component.sort());
    }
  }
  return components;
}

/** A shortest cycle through `start` inside `members`, as a path that ends where it began. */
function shortestCycle(graph: ImportGraph, start: string, members: ReadonlySet<string>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head];
    for (const to of graph.get(node) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const between: string[] = [];
        for (let at: string | undefined = node; at !== undefined && at !== start; at = cameFrom.get(at)) {
          between.unshift(at);
        }
        return [start, ...between, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

/** One import cycle found: the files tangled together and one path around them. */
export interface ImportCycle {
  files: string[];
  path: string[];
}

/** Every tangle of the graph, each with a shortest cycle through its first file (sorted). */
export function findCycles(graph: ImportGraph): ImportCycle[] {
  return tangledComponents(graph)
    .map((files) => ({ files, path: shortestCycle(graph, files[0], new Set(files)) }))
    .sort((a, b) => a.files[0].localeCompare(b.files[0]));
}
