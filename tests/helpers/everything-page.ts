// One Chromium page on browser mode with server-everything configured: the set-up several e2e
// files share. Registers node:test before/after hooks; the getters read what they set up.
import { existsSync } from 'node:fs';
import { after, before } from 'node:test';
import { type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { startBrowserMode, type BrowserMode } from './browser-mode.js';
import { chromiumSkipReason, launchChromium, logPageErrors } from './chromium.js';
import { EVERYTHING_SERVER as EVERYTHING } from './e2e-app.js';

/** What a test file reads of the shared set-up (null where it was skipped). */
export interface EverythingPage {
  skipReason: string | null;
  mode: () => BrowserMode | null;
  page: () => Page | null;
}

/** Start browser mode with server-everything and open one page; `label` names the file's skip line. */
export function everythingPage(label: string, pageOptions: BrowserContextOptions = {}): EverythingPage {
  const skipReason =
    chromiumSkipReason ?? (!existsSync(EVERYTHING) ? `${EVERYTHING} not found (npm install)` : null);
  let mode: BrowserMode | null = null;
  let browser: Browser | null = null;
  let page: Page | null = null;
  before(async () => {
    if (skipReason) {
      console.log(`${label} skipped: ${skipReason}`);
      return;
    }
    mode = await startBrowserMode({
      config: { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } },
    });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 }, ...pageOptions });
    logPageErrors(page);
  });
  after(async () => {
    await browser?.close();
    await mode?.stop();
  });
  return { skipReason, mode: () => mode, page: () => page };
}
