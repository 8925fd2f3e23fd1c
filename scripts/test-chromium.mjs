// The one Chromium of an `npm test` run (DESIGN.md §4: Debian's binary, never a downloaded one).
// scripts/test.mjs starts it as a Playwright browser server on 127.0.0.1 before the e2e files and
// hands its address to them in MCP_DESK_TEST_BROWSER_WS; each file connects instead of launching
// a Chromium of its own (about 2.3 s of CPU saved per file). Files stay apart: everything a file
// opens lives in browser contexts of its own connection, closed when it disconnects. A file run
// on its own (no address) launches its own Chromium, as before. tests/helpers/chromium.ts reads
// the path and flags from here so both launch the same browser.
import { existsSync } from 'node:fs';

/** Debian's Chromium; CHROMIUM_PATH points elsewhere (another distro, a local build). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** No sandbox (CI runs as root in a container), no GPU, and nothing that phones home. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The environment variable that carries the shared browser's address to the test files. */
export const SHARED_BROWSER_ENV = 'MCP_DESK_TEST_BROWSER_WS';

/**
 * Starts the shared Chromium when some of `files` are e2e tests and Chromium is installed;
 * resolves to its server (`wsEndpoint()`, `close()`), or null when there is nothing to share.
 */
export async function startSharedChromium(files) {
  if (!files.some((file) => file.startsWith('tests/e2e/')) || !existsSync(CHROMIUM_PATH)) return null;
  const { chromium } = await import('playwright-core');
  // Loopback and a random port; the endpoint's path is a random token Playwright makes.
  return chromium.launchServer({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS],
    host: '127.0.0.1',
    port: 0,
  });
}
