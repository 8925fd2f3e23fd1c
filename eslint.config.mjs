// ESLint flat config: the house rules of DESIGN.md §6 that a tool can keep. Type-aware
// typescript-eslint, React hooks, jsx-a11y, max-lines on formatted code, and the layer table
// (scripts/layers.mjs) as import rules whose messages name the broken rule. Import cycles are
// found by tests/architecture.test.ts, not here: import-x/no-cycle cost over half of the lint run.
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { layerMessage, layers, viewsFolder } from './scripts/layers.mjs';
import { readdirSync } from 'node:fs';

const viewNames = readdirSync(new URL(`./${viewsFolder}/`, import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** import-x/no-restricted-paths zones: every layer against every folder it may not import. */
const layerZones = layers.flatMap((from) =>
  layers
    .filter((to) => !from.mayImport.includes(to.name) && !to.folder.startsWith(`${from.folder}/`))
    .map((to) => ({
      target: `./${from.folder}`,
      from: `./${to.folder}`,
      message: layerMessage(from, `${to.folder}/ (${to.name})`),
    })),
);

/** A view folder may not reach into another view's files (DESIGN.md §6 rule 9). */
const viewZones = viewNames.flatMap((name) =>
  viewNames
    .filter((other) => other !== name)
    .map((other) => ({
      target: `./${viewsFolder}/${name}`,
      from: `./${viewsFolder}/${other}`,
      message: `view rule (DESIGN.md §6.9): ${viewsFolder}/${name}/ may not import ${viewsFolder}/${other}/; move what both need to renderer/hooks/ or renderer/components/`,
    })),
);

const nodeBuiltinPatterns = [
  'node:*',
  'fs',
  'fs/*',
  'path',
  'os',
  'child_process',
  'crypto',
  'events',
  'util',
];

/** no-restricted-imports per layer: Node builtins, `electron` and npm packages it may not use. */
const layerImportBans = layers.map((layer) => {
  const patterns = [];
  if (!layer.builtins) {
    patterns.push({ group: nodeBuiltinPatterns, message: layerMessage(layer, 'Node builtins') });
  }
  if (!layer.electron) {
    patterns.push({ group: ['electron', 'electron/*'], message: layerMessage(layer, 'electron') });
  }
  if (Array.isArray(layer.externals)) {
    const allowed = layer.externals.map((name) => `${name}(/|$)`).join('|');
    patterns.push({
      regex: `^(?!\\.|${allowed})`,
      message: layerMessage(layer, `npm packages other than ${layer.externals.join(', ')}`),
    });
  }
  return {
    files: [`${layer.folder}/**/*.{ts,tsx}`],
    rules: { 'no-restricted-imports': ['error', { patterns }] },
  };
});

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'out/**',
      'dist/**',
      'test-results/**',
      '.tmp/**',
      'tools/**',
      'docs/**',
      'build/**',
      '**/*.d.mts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    settings: {
      // Without this import-x reads only .js files, so its path rules never followed a .ts import.
      'import-x/extensions': ['.ts', '.tsx', '.cts', '.mts', '.js', '.jsx', '.cjs', '.mjs'],
      // The TypeScript resolver 3.8 and import-x 4.6 are pinned: later versions resolve through
      // unrs-resolver, whose per-platform binaries the registry CI reaches does not all carry, so
      // `npm ci` refused the lockfile (README, Development).
      'import-x/resolver': {
        typescript: { project: ['tsconfig.json', 'renderer/tsconfig.json'], noWarnOnMultipleProjects: true },
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      // node:test's describe/it return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] },
          ],
        },
      ],
      // Interface methods are async by contract even where one implementation has nothing to await.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'import-x/no-default-export': 'error',
      'import-x/no-restricted-paths': ['error', { zones: [...layerZones, ...viewZones] }],
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
    },
  },
  ...layerImportBans,
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
    },
  },
  {
    // Plain JavaScript (scripts, fixtures, config files) is outside every tsconfig: no type-aware rules.
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Tools read their configuration (and node:test its reporters) from a default export;
    // declarations describe others' modules.
    files: [
      'eslint.config.mjs',
      'vite.config.ts',
      '**/*.d.ts',
      'scripts/build-shims/*.mjs',
      'scripts/test-times.mjs',
    ],
    rules: { 'import-x/no-default-export': 'off' },
  },
);
