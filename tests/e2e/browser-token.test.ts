// Browser mode without its token (issue 12 item 5): the page used to go blank with React error
// #185 (maximum update depth). Opened without a token, or with one the host refuses, it now
// explains how to get in; with the token it works, a reload of that tab keeps working
// (sessionStorage), and the address copied from the bar (token stripped) shows the help page.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { chromiumSkipReason, launchChromium, saveScreenshot, withEvidence } from '../helpers/chromium.js';
import { startBrowserMode, type BrowserMode } from '../helpers/browser-mode.js';
import { seriousViolations } from '../helpers/axe.js';

const skipReason = chromiumSkipReason;
let mode: BrowserMode | null = null;
let browser: Browser | null = null;

before(async () => {
  if (skipReason) return;
  mode = await startBrowserMode();
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await mode?.stop();
});

/** A fresh tab (own sessionStorage) recording page errors and console errors. */
async function freshPage(b: Browser, viewport = { width: 1200, height: 800 }) {
  const context = await b.newContext({ viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return { page, errors, close: () => context.close() };
}

test('without a token the page explains how to open the app', { timeout: 60_000 }, async (t) => {
  if (skipReason || !browser || !mode) return t.skip(skipReason ?? 'setup failed');
  const origin = new URL(mode.url).origin;
  const { page: p, errors, close } = await freshPage(browser);
  await withEvidence(p, 'token-missing', async () => {
    await p.goto(`${origin}/`);
    const help = p.getByTestId('token-help');
    await help.waitFor({ timeout: 15_000 });
    assert.equal(await help.getAttribute('data-reason'), 'missing');
    assert.match((await help.textContent()) ?? '', /mcp-desk browser/);
    assert.match((await help.textContent()) ?? '', /#token=/);
    // A render loop (#185) throws within the render that showed the help; one that goes through
    // effects has run again by the second frame. Wait for that, then check nothing blew up.
    await p.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
    assert.deepEqual(
      errors.filter((e) => /#185|Maximum update depth|getSnapshot/.test(e)),
      [],
      errors.join('\n'),
    );
    assert.deepEqual(await seriousViolations(p), []);
    await saveScreenshot(p, 'token-help-light');
    await p.emulateMedia({ colorScheme: 'dark' });
    await saveScreenshot(p, 'token-help-dark');
    await p.setViewportSize({ width: 800, height: 600 });
    await saveScreenshot(p, 'token-help-800x600');
  });
  await close();
});

test('a refused token shows the page too, and is forgotten', { timeout: 60_000 }, async (t) => {
  if (skipReason || !browser || !mode) return t.skip(skipReason ?? 'setup failed');
  const origin = new URL(mode.url).origin;
  const { page: p, close } = await freshPage(browser);
  await withEvidence(p, 'token-rejected', async () => {
    await p.goto(`${origin}/#token=not-the-right-one`);
    const help = p.getByTestId('token-help');
    await help.waitFor({ timeout: 15_000 });
    assert.equal(await help.getAttribute('data-reason'), 'rejected');
    assert.match((await help.textContent()) ?? '', /refused/);
    const stored = await p.evaluate<string | null>(`sessionStorage.getItem('mcp-desk.session-token')`);
    assert.equal(stored, null, 'a refused token is not kept for the next reload');
    await saveScreenshot(p, 'token-help-rejected');
  });
  await close();
});

test('the token works, a reload keeps it, a copied address does not', { timeout: 60_000 }, async (t) => {
  if (skipReason || !browser || !mode) return t.skip(skipReason ?? 'setup failed');
  const first = await freshPage(browser);
  const p = first.page;
  await withEvidence(p, 'token-reload', async () => {
    await p.goto(mode!.url);
    await p.getByTestId('nav-servers').click();
    await p.getByTestId('servers-empty').waitFor();
    const copied = p.url();
    assert.equal(new URL(copied).hash, '', 'the token is out of the address bar');
    await p.reload();
    await p.getByTestId('nav-servers').click();
    await p.getByTestId('servers-empty').waitFor();
    assert.equal(await p.getByTestId('token-help').count(), 0);

    const other = await freshPage(browser!);
    await other.page.goto(copied);
    await other.page.getByTestId('token-help').waitFor({ timeout: 15_000 });
    await other.close();
  });
  await first.close();
});
