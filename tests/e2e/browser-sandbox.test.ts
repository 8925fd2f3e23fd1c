// The sandbox in the real UI: tick "Run in an OS sandbox" in the add-server form, see the row's
// badge say what the host reports ("Sandboxed" where bubblewrap works, "Sandbox unavailable: …"
// elsewhere), find `"sandbox": true` in the config file, and the box still ticked on Edit.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type Browser, type Page } from 'playwright-core';
import { systemSandboxDetector } from '../../electron/host/connection/sandbox/sandbox-detector.js';
import { chromiumSkipReason, launchChromium, saveScreenshot } from '../helpers/chromium.js';
import { repoRoot, startBrowserMode, type BrowserMode } from '../helpers/browser-mode.js';

const PROBE = join(repoRoot, 'tests', 'fixtures', 'path-probe-server.mjs');
const skipReason = chromiumSkipReason;

let mode: BrowserMode | null = null;
let browser: Browser | null = null;
let page: Page | null = null;

before(async () => {
  if (skipReason) {
    console.log(`browser sandbox e2e skipped: ${skipReason}`);
    return;
  }
  mode = await startBrowserMode({ config: { mcpServers: {} } });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
});

after(async () => {
  await browser?.close();
  await mode?.stop();
});

test(
  'a server added with the sandbox box ticked shows its sandbox state',
  { timeout: 90_000, skip: skipReason ?? false },
  async () => {
    const p = page!;
    try {
      await p.goto(mode!.url);
      await p.getByTestId('nav-servers').click();
      await p.getByTestId('add-server').click();
      await p.getByTestId('server-name').fill('probe');
      await p.getByTestId('server-command').fill(process.execPath);
      await p.getByTestId('server-args').fill(PROBE);
      await p.getByTestId('server-sandbox').check();
      await p.getByTestId('server-form-submit').click();

      // Browser mode runs the same detection as this process, so the expected badge is known.
      const available = systemSandboxDetector.detect();
      const badge = p.locator(
        `[data-testid="server-sandbox-probe"][data-sandbox="${available.ok ? 'on' : 'unavailable'}"]`,
      );
      await badge.waitFor({ timeout: 30_000 });
      if (available.ok) {
        assert.equal((await badge.textContent())?.trim(), 'Sandboxed');
        await p
          .locator('[data-testid="server-state-probe"][data-state="connected"]')
          .waitFor({ timeout: 30_000 });
      } else {
        assert.match((await badge.textContent()) ?? '', /^Sandbox unavailable: /);
      }
      await saveScreenshot(p, 'sandbox-badge');

      const saved = JSON.parse(readFileSync(mode!.configPath, 'utf8')) as {
        mcpServers: Record<string, { sandbox?: boolean }>;
      };
      assert.equal(saved.mcpServers.probe?.sandbox, true, 'the choice is saved in the config file');
      await p.getByTestId('edit-server-probe').click();
      assert.equal(await p.getByTestId('server-sandbox').isChecked(), true, 'Edit shows the box ticked');
    } catch (error) {
      await saveScreenshot(p, 'sandbox-badge-FAILED').catch(() => undefined);
      if (mode) console.log(`browser mode output:\n${mode.output()}`);
      throw error;
    }
  },
);
