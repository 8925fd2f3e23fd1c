// The real renderer in real Chromium against real browser mode: add server-everything
// through the form, watch it connect, call `echo` through the generated form, and check
// the server survives a reload. Screenshots of every step land in test-results/e2e/.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { type Browser, type Page } from 'playwright-core';
import {
  chromiumSkipReason,
  launchChromium,
  logPageErrors,
  pageOrSkip,
  saveScreenshot,
  withEvidence as keepEvidence,
} from '../helpers/chromium.js';
import { startBrowserMode, type BrowserMode } from '../helpers/browser-mode.js';
import { EVERYTHING_SERVER as EVERYTHING } from '../helpers/e2e-app.js';

const CONNECT_TIMEOUT_MS = 60_000;

const skipReason =
  chromiumSkipReason ?? (!existsSync(EVERYTHING) ? `${EVERYTHING} not found (npm install)` : null);

let mode: BrowserMode | null = null;
let browser: Browser | null = null;
let page: Page | null = null;

before(async () => {
  if (skipReason) {
    console.log(`browser e2e skipped: ${skipReason}`);
    return;
  }
  mode = await startBrowserMode({ config: { mcpServers: {} } });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  logPageErrors(page);
});

after(async () => {
  await browser?.close();
  await mode?.stop();
});

const shot = (p: Page, name: string): Promise<void> => saveScreenshot(p, name);

/** Run the steps; on failure keep a screenshot and the host's output for the diagnosis. */
function withEvidence(p: Page, name: string, steps: () => Promise<void>): Promise<void> {
  return keepEvidence(p, name, steps, () => mode && `browser mode output:\n${mode.output()}`);
}

test('add server-everything through the form and call echo', { timeout: 120_000 }, async (t) => {
  const p = pageOrSkip(t, skipReason, page);
  if (!p || !mode) return;
  const message = 'hello from the e2e test, with spaces & ünïcode';
  await withEvidence(p, 'add-and-call', async () => {
    await p.goto(mode!.url);
    await p.getByTestId('nav-servers').click();
    await p.getByTestId('servers-empty').waitFor();
    // The token moves from the URL bar into sessionStorage at once.
    assert.equal(new URL(p.url()).hash, '', 'the #token fragment is removed from the address bar');
    await shot(p, '01-empty');

    await p.getByTestId('add-server').click();
    await p.getByTestId('server-name').fill('everything');
    await p.getByTestId('server-transport').selectOption('stdio');
    await p.getByTestId('server-command').fill(process.execPath);
    await p.getByTestId('server-args').fill([EVERYTHING, 'stdio'].join('\n'));
    await shot(p, '02-add-form');
    await p.getByTestId('server-form-submit').click();

    await p.getByTestId('server-row-everything').waitFor();
    await p
      .locator('[data-testid="server-state-everything"][data-state="connected"]')
      .waitFor({ timeout: CONNECT_TIMEOUT_MS });
    assert.equal((await p.getByTestId('server-state-everything').textContent())?.trim(), 'connected');
    await shot(p, '03-connected');

    await p.getByTestId('nav-tools').click();
    await p.getByTestId('tool-item-everything-echo').click();
    await p.getByTestId('field-message').fill(message);
    await shot(p, '04-echo-form');
    await p.getByTestId('call-tool').click();

    const result = p.getByTestId('tool-result');
    await result.filter({ hasText: `Echo: ${message}` }).waitFor({ timeout: 30_000 });
    assert.equal(await result.getAttribute('data-status'), 'ok');
    assert.equal((await result.getByTestId('content-text').textContent())?.trim(), `Echo: ${message}`);
    await shot(p, '05-echo-result');

    // Switching a tool off for chat is a setting the host applies to the catalog.
    const offer = p.getByTestId('chat-offer-everything-echo');
    await offer.click(); // controlled by the host: it flips once settings.changed arrives
    await p.locator('[data-testid="tool-item-everything-echo"].off').waitFor({ timeout: 10_000 });
    await offer.click();
    await p.locator('[data-testid="tool-item-everything-echo"]:not(.off)').waitFor({ timeout: 10_000 });
  });
});

test('after a reload the server is still listed and connected', { timeout: 90_000 }, async (t) => {
  const p = pageOrSkip(t, skipReason, page);
  if (!p || !mode) return;
  await withEvidence(p, 'reload', async () => {
    await p.reload();
    await p.getByTestId('nav-servers').click();
    // The token now comes from sessionStorage: the reloaded page must still reach the host.
    await p.getByTestId('server-row-everything').waitFor();
    await p
      .locator('[data-testid="server-state-everything"][data-state="connected"]')
      .waitFor({ timeout: CONNECT_TIMEOUT_MS });
    assert.equal(await p.getByTestId('connection-banner').count(), 0, 'no disconnected banner');
    const saved = JSON.parse(readFileSync(mode!.configPath, 'utf8')) as {
      mcpServers: Record<string, { command?: string; args?: string[] }>;
    };
    assert.equal(
      saved.mcpServers.everything?.command,
      process.execPath,
      'the server was persisted to the config file',
    );
    assert.deepEqual(saved.mcpServers.everything?.args, [EVERYTHING, 'stdio']);
    await shot(p, '06-after-reload');
  });
});
