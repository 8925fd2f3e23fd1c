// The layer table of DESIGN.md §1 as data. ESLint (eslint.config.mjs) turns it into
// import-x/no-restricted-paths zones and no-restricted-imports patterns; the architecture test
// (tests/architecture.test.ts) checks every file against the same table, so the two agree.

/**
 * One row per layer: the folder it owns, the layers it may import, and whether it may import
 * Node builtins, the `electron` module and npm packages (`externals`: true for any, or a list).
 */
export const layers = [
  {
    name: 'shared',
    folder: 'shared',
    mayImport: ['shared'],
    builtins: false,
    electron: false,
    externals: ['zod'],
  },
  {
    name: 'host',
    folder: 'electron/host',
    mayImport: ['shared', 'host'],
    builtins: true,
    electron: false,
    externals: true,
  },
  {
    name: 'main',
    folder: 'electron/main',
    mayImport: ['shared', 'host', 'main'],
    builtins: true,
    electron: true,
    externals: true,
  },
  {
    name: 'preload',
    folder: 'electron/preload',
    mayImport: ['shared', 'preload'],
    builtins: false,
    electron: true,
    externals: true,
  },
  {
    name: 'headless',
    folder: 'electron/headless',
    mayImport: ['shared', 'host', 'headless'],
    builtins: true,
    electron: false,
    externals: true,
  },
  {
    name: 'renderer',
    folder: 'renderer',
    mayImport: ['shared', 'renderer'],
    builtins: false,
    electron: false,
    externals: true,
  },
];

/** Renderer view folders: each may import only itself, renderer/{components,hooks,host,lib} and shared/. */
export const viewsFolder = 'renderer/views';

/** The message a broken layer rule carries: names the rule and the table it comes from. */
export function layerMessage(from, to) {
  return `layer rule (DESIGN.md §1): ${from.folder}/ (${from.name}) may import only ${from.mayImport.join(', ')}; not ${to}`;
}
