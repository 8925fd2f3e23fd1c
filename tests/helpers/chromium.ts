// The one place the e2e tests learn how to run Chromium (DESIGN.md §4): Debian's binary with the
// flags a headless CI machine needs, the reason to skip when it is missing, and screenshots
// kept as artifacts under test-results/e2e/ (the step shots and, on failure, the evidence).
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, SHARED_BROWSER_ENV } from '../../scripts/test-chromium.mjs';
import { repoRoot } from './browser-mode.js';

export { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/test-chromium.mjs';

/** Where screenshots land: CI keeps test-results/ as the run's artifacts. */
export const SHOTS_DIR = join(repoRoot, 'test-results', 'e2e');

/** Why Chromium cannot run on this machine, or null when it can. */
export const chromiumSkipReason: string | null = existsSync(CHROMIUM_PATH)
  ? null
  : `${CHROMIUM_PATH} not found (install Debian's chromium: apt-get install -y chromium)`;

/**
 * The run's shared Chromium when `npm test` started one (scripts/test-chromium.mjs) and no
 * `extra` flags are asked for, else a Chromium of this file's own with the suite's flags and the
 * extra ones (never a Playwright-downloaded browser). Either way `close()` ends what this file
 * opened: on the shared one, its own contexts and its connection. Open pages with `newPage()` or
 * `newContext()`, which are this file's alone.
 */
export async function launchChromium(extra: readonly string[] = []): Promise<Browser> {
  const shared = process.env[SHARED_BROWSER_ENV];
  // Flags are the browser's, not a context's: a file that needs its own gets its own browser.
  if (shared && extra.length === 0) {
    try {
      return await chromium.connect(shared);
    } catch (error) {
      // The shared browser is gone (it crashed?): this file still runs, on a browser of its own.
      console.log(`shared Chromium unreachable (${(error as Error).message}); launching one for this file`);
    }
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extra] });
}

/** Prints the page's uncaught errors into the test output, where a failure's reader looks. */
export function logPageErrors(page: Page): void {
  page.on('pageerror', (error) => console.log(`page error: ${error.message}\n${error.stack ?? ''}`));
}

/** Saves `page` as test-results/e2e/<name>.png (full page unless told otherwise). */
export async function saveScreenshot(page: Page, name: string, fullPage = true): Promise<void> {
  mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: join(SHOTS_DIR, `${name}.png`), fullPage });
}

/** Text a failed e2e step prints besides its screenshot (null or undefined: nothing to print). */
export type EvidenceLog = () => string | null | undefined;

/**
 * Runs `steps`; when they fail, saves `<name>-FAILED.png` of each page (numbered when there are
 * several), prints every `logs` entry (e.g. the browser-mode output), and rethrows.
 */
export async function withEvidence(
  pages: Page | Page[],
  name: string,
  steps: () => Promise<void>,
  ...logs: EvidenceLog[]
): Promise<void> {
  try {
    await steps();
  } catch (error) {
    const list = Array.isArray(pages) ? pages : [pages];
    for (const [i, p] of list.entries()) {
      const shot = list.length > 1 ? `${name}-FAILED-${i}` : `${name}-FAILED`;
      await saveScreenshot(p, shot).catch(() => undefined);
    }
    for (const log of logs) {
      const text = log();
      if (text) console.log(text);
    }
    throw error;
  }
}

/** `page` when the test can run; otherwise skips the test with the reason and returns null. */
export function pageOrSkip<T>(t: TestContext, skipReason: string | null, page: T | null): T | null {
  if (skipReason || !page) {
    t.skip(skipReason ?? 'setup failed');
    return null;
  }
  return page;
}
