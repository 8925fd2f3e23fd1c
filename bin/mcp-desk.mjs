#!/usr/bin/env node
// `mcp-desk` entry point. The CLI itself is TypeScript compiled into out/ by scripts/build.mjs;
// this shim stays plain JavaScript so the package's bin works without a build step of its own.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cliUrl = new URL('../out/headless/cli.mjs', import.meta.url);

if (!existsSync(fileURLToPath(cliUrl))) {
  console.error(
    'mcp-desk: out/headless/cli.mjs is missing; run `npm run build` in the project folder first.',
  );
  process.exit(1);
}

await import(cliUrl.href);
