// The layer table of DESIGN.md §1 (scripts/layers.mjs, the same table ESLint reads) applied to
// one file's module references. Kept apart from ESLint on purpose: a second, independent reading
// of the table, so a lint config that silently stops matching files cannot hide a violation.
import { isBuiltin } from 'node:module';
import { layers, viewsFolder, type Layer } from '../../scripts/layers.mjs';
import { findImports, isRelative, resolveRelative, type ImportRef } from './import-graph.js';

/** A broken layering rule, located to file:line. */
export interface Violation {
  file: string;
  line: number;
  specifier: string;
  kind: ImportRef['kind'];
  rule: string;
}

const isInside = (target: string, folder: string): boolean =>
  target === folder || target.startsWith(`${folder}/`);

/** The layer a repo-relative path belongs to (the deepest matching folder), if any. */
export function layerOf(fileRel: string): Layer | undefined {
  return layers
    .filter((layer) => isInside(fileRel, layer.folder))
    .sort((a, b) => b.folder.length - a.folder.length)[0];
}

const isElectron = (specifier: string): boolean =>
  specifier === 'electron' || specifier.startsWith('electron/');

const isNodeBuiltin = (specifier: string): boolean => specifier.startsWith('node:') || isBuiltin(specifier);

/** `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
const packageName = (specifier: string): string =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** The view folder (e.g. `renderer/views/chat`) a path lies in, if any. */
function viewFolderOf(fileRel: string): string | undefined {
  if (!fileRel.startsWith(`${viewsFolder}/`)) return undefined;
  const [name] = fileRel.slice(viewsFolder.length + 1).split('/');
  return name && fileRel.length > viewsFolder.length + 1 + name.length ? `${viewsFolder}/${name}` : undefined;
}

/** Explains why one reference breaks the rules of its file's layer, or returns undefined. */
function ruleBroken(layer: Layer, fileRel: string, specifier: string): string | undefined {
  const where = `${layer.folder}/ (${layer.name})`;
  if (isRelative(specifier)) {
    const target = resolveRelative(fileRel, specifier);
    const targetLayer = layerOf(target);
    if (!targetLayer) return `${where} imports ${target}, which is in no layer of scripts/layers.mjs`;
    if (!layer.mayImport.includes(targetLayer.name)) {
      return `${where} may import only ${layer.mayImport.join(', ')}; not ${targetLayer.folder}/ (${targetLayer.name})`;
    }
    const fromView = viewFolderOf(fileRel);
    const toView = viewFolderOf(target);
    if (fromView && toView && fromView !== toView) {
      return `view rule: ${fromView}/ may not import ${toView}/; move what both need to renderer/hooks/ or renderer/components/`;
    }
    return undefined;
  }
  if (isElectron(specifier)) return layer.electron ? undefined : `${where} may not import electron`;
  if (isNodeBuiltin(specifier)) return layer.builtins ? undefined : `${where} may not import Node builtins`;
  if (layer.externals === true || layer.externals.includes(packageName(specifier))) return undefined;
  return `${where} may import only the npm packages ${layer.externals.join(', ')}`;
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

/** `file:line: kind 'specifier': rule`, for a failure message. */
export const formatViolation = (v: Violation): string =>
  `${v.file}:${v.line}: ${v.kind} '${v.specifier}': ${v.rule}`;
