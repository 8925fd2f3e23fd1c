#!/usr/bin/env node
// Builds everything MCP Desk runs from into out/:
//   out/renderer/          Vite build of renderer/ (loaded from file:// by Electron, served by browser mode)
//   out/main/index.cjs     Electron main process (CommonJS, node_modules stay external but conf/electron-store)
//   out/preload/index.cjs  sandboxed preload (one self-contained CommonJS file, only `electron` external)
//   out/headless/cli.mjs   the plain-Node entry: `mcp-desk` CLI and browser mode
//   out/sandbox/sandbox-proxy.js  the MCP Apps sandbox proxy script (served on the sandbox origin)
// Flags: --headless-only  skip the Electron-only bundles (main, preload); the renderer is still
//                         built because browser mode serves it.
// Plain .mjs rather than TypeScript so it runs on a fresh checkout before anything is compiled.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'out');
const headlessOnly = process.argv.includes('--headless-only');

// The settings file goes through conf (and electron-store, which extends it). Both are ESM-only,
// which the CommonJS main bundle could only `require` through Node's require(esm), so they are
// bundled in, with their own dependencies, rather than loaded from node_modules at run time.
// Bundling also lets `alias` swap out when-exit (see scripts/build-shims/when-exit.mjs), which
// would otherwise take over SIGINT/SIGTERM in the CLI and browser mode as well.
const bundledPackages = new Set(['conf', 'electron-store']);
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
/** Every other package we depend on stays external (esbuild also matches their subpaths). */
const externalPackages = [
  ...Object.keys(manifest.dependencies ?? {}),
  ...Object.keys(manifest.devDependencies ?? {}),
].filter((name) => !bundledPackages.has(name));

/** Node-side bundles share these; target matches the oldest Node we run on (engines: >=20.19). */
const nodeCommon = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  absWorkingDir: root,
  external: externalPackages,
  alias: { 'when-exit': './scripts/build-shims/when-exit.mjs' },
};

// CommonJS output has no import.meta; host code may use import.meta.url/dirname to locate files,
// so those are rewritten to their CommonJS equivalents instead of silently becoming undefined.
const cjsImportMeta = {
  banner: { js: 'var __mcpDeskImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
  define: {
    'import.meta.url': '__mcpDeskImportMetaUrl',
    'import.meta.dirname': '__dirname',
    'import.meta.filename': '__filename',
  },
};

const entries = [
  {
    name: 'main',
    source: 'electron/main/index.ts',
    electronOnly: true,
    options: {
      ...nodeCommon,
      ...cjsImportMeta,
      format: 'cjs',
      outfile: 'out/main/index.cjs',
      // The packaged app ships node_modules, so dependencies are required at run time rather
      // than inlined; every runtime dependency left external has a `require` export.
      external: ['electron', ...externalPackages],
    },
  },
  {
    name: 'preload',
    source: 'electron/preload/index.ts',
    electronOnly: true,
    options: {
      // A sandboxed preload can `require` nothing but `electron` (and a few polyfills), so it is
      // bundled whole, and for the browser platform so that a stray Node import fails here,
      // at build time, instead of in the user's window.
      bundle: true,
      platform: 'browser',
      format: 'cjs',
      target: 'es2023',
      sourcemap: true,
      logLevel: 'warning',
      absWorkingDir: root,
      outfile: 'out/preload/index.cjs',
      external: ['electron'],
      define: { 'process.env.NODE_ENV': '"production"' },
    },
  },
  {
    name: 'headless',
    source: 'electron/headless/cli.ts',
    electronOnly: false,
    options: {
      ...nodeCommon,
      format: 'esm',
      outfile: 'out/headless/cli.mjs',
      // ESM output has no `require`; bundled code that still calls it (CommonJS interop, JSON)
      // gets a real one instead of a "Dynamic require is not supported" crash.
      banner: {
        js: 'import { createRequire as __mcpDeskCreateRequire } from "node:module"; const require = __mcpDeskCreateRequire(import.meta.url);',
      },
    },
  },
  {
    // The MCP Apps sandbox proxy: one classic script, served by the sandbox origin (browser
    // mode's second port, the desktop app's scheme) under each view's CSP.
    name: 'sandbox',
    source: 'renderer/sandbox/sandbox-proxy.ts',
    electronOnly: false,
    options: {
      bundle: true,
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      logLevel: 'warning',
      absWorkingDir: root,
      outfile: 'out/sandbox/sandbox-proxy.js',
    },
  },
];

/** Bundles one Node/Electron entry with esbuild, or explains why it was skipped. */
async function buildEntry(entry) {
  if (headlessOnly && entry.electronOnly) {
    console.log(`build: ${entry.name} skipped (--headless-only)`);
    return;
  }
  if (!existsSync(path.join(root, entry.source))) {
    // Other parts of the app are written in parallel; a missing entry must not block the rest.
    // A stale bundle from an older source would be misleading, so it goes too.
    rmSync(path.join(root, entry.options.outfile), { force: true });
    rmSync(path.join(root, `${entry.options.outfile}.map`), { force: true });
    console.log(`build: ${entry.name} skipped (${entry.source} does not exist yet)`);
    return;
  }
  const started = performance.now();
  await esbuild.build({ entryPoints: [entry.source], ...entry.options });
  console.log(
    `build: ${entry.name} -> ${entry.options.outfile} (${Math.round(performance.now() - started)} ms)`,
  );
}

/** Builds the renderer with Vite from vite.config.ts. */
async function buildRenderer() {
  if (!existsSync(path.join(root, 'renderer/index.html'))) {
    console.log('build: renderer skipped (renderer/index.html does not exist yet)');
    return;
  }
  const started = performance.now();
  // Imported lazily so that a --headless-only run on a machine without a working Vite still
  // fails with Vite's own error, not at the top of this script.
  const { build } = await import('vite');
  await build({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
  console.log(
    `build: renderer -> ${path.relative(root, path.join(outDir, 'renderer'))}/ (${Math.round(performance.now() - started)} ms)`,
  );
}

try {
  // esbuild and Vite each use their own worker threads; running them together halves wall time.
  await Promise.all([buildRenderer(), ...entries.map(buildEntry)]);
} catch (error) {
  // esbuild has already printed its diagnostics with file:line; Vite's error needs printing.
  if (!(error && Array.isArray(error.errors))) console.error(error);
  console.error('build: FAILED');
  process.exit(1);
}
