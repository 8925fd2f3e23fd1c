// The Settings view, end to end: real browser mode, the real renderer in Chromium. Appearance
// changes restyle the page at once, persist in the host (a second window with empty storage
// sees them, and follows later changes live); the Gemini address set here is where the next
// chat request goes (a fake Gemini at that address, never given by flag or variable); browser
// mode shows the quick-ask shortcut as not applicable; the data paths are right and copyable.
// Screenshots: test-results/e2e/settings-*.png (light, dark, 800x600).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { reply, splitText, startFakeGemini, type FakeGemini } from '../fixtures/fake-gemini.js';
import { assertAccessible } from '../helpers/axe.js';
import { chromiumSkipReason, pageOrSkip } from '../helpers/chromium.js';
import { keychainSkipReason, removeStoredKey, saveKeyInSettings } from '../helpers/e2e-app.js';
import { e2eEvidence, startE2eSession, type E2eSession } from '../helpers/e2e-session.js';

const API_KEY = `e2e-${randomBytes(12).toString('hex')}`;
const ANSWER = 'Answered from the address set in Settings.';
const skipReason = chromiumSkipReason;

let session: E2eSession | null = null;
let gemini: FakeGemini | null = null;
let keySaved = false;

before(async () => {
  if (skipReason) {
    console.log(`settings e2e skipped: ${skipReason}`);
    return;
  }
  // Whatever this shell has, the only way to the fake below must be the Settings page.
  delete process.env.MCP_DESK_GEMINI_BASE_URL;
  gemini = await startFakeGemini({ apiKey: API_KEY, script: [reply(...splitText(ANSWER, 3))] });
  session = await startE2eSession({ config: { mcpServers: {} }, viewport: { width: 1280, height: 900 } });
});

after(async () => {
  const p = session?.page;
  if (p && keySaved)
    await p
      .getByTestId('nav-chat')
      .click()
      .then(() => removeStoredKey(p))
      .catch(() => undefined);
  await session?.stop();
  await gemini?.close();
});

const { shot, withEvidence } = e2eEvidence('settings', () => session);

// Page functions are strings: this file is typed without the DOM library; they run in the page.
const bodyStyle = (p: Page, prop: 'backgroundColor' | 'color' | 'fontSize') =>
  p.evaluate<string>(`getComputedStyle(document.body).${prop}`);
// Waits are locators: polling a string predicate would need eval, which the app's CSP forbids.
const themeIs = (p: Page, theme: string | undefined) =>
  p.locator(theme ? `html[data-theme="${theme}"]` : 'html:not([data-theme])').waitFor({ state: 'attached' });

async function openSettings(p: Page): Promise<void> {
  await p.getByTestId('nav-settings').click();
  await p.getByTestId('settings-view').waitFor();
  await p.getByTestId('theme-system').waitFor();
}

test('settings: the theme changes colours at once, persists in the host and reaches other windows', async (t) => {
  const p = pageOrSkip(t, skipReason, session?.page ?? null);
  const s = session;
  if (!p || !s) return;
  await withEvidence(p, 'theme', async () => {
    await p.emulateMedia({ colorScheme: 'light' });
    await p.goto(s.mode.url);
    await openSettings(p);
    const light = await bodyStyle(p, 'backgroundColor');
    assert.equal(light, 'rgb(246, 247, 249)', 'system theme on a light OS is light');
    await p.getByTestId('theme-dark').check();
    await themeIs(p, 'dark');
    assert.equal(await bodyStyle(p, 'backgroundColor'), 'rgb(20, 22, 27)', 'dark wins over the light OS');
    assert.equal(await bodyStyle(p, 'color'), 'rgb(230, 232, 238)');
    // Markdown code colours follow too (they had their own media query).
    const keyword = await p.evaluate<string>(`(() => {
      const span = document.createElement('span');
      span.className = 'hljs-keyword';
      document.body.append(span);
      const c = getComputedStyle(span).color;
      span.remove();
      return c;
    })()`);
    assert.equal(keyword, 'rgb(255, 123, 114)');
    await shot(p, 'dark-forced');

    // A second window with empty storage: only the host can tell it the theme.
    const other = await s.browser.newPage({ viewport: { width: 900, height: 700 } });
    try {
      await other.emulateMedia({ colorScheme: 'light' });
      await other.goto(s.mode.url);
      await themeIs(other, 'dark');
      assert.equal(await bodyStyle(other, 'backgroundColor'), 'rgb(20, 22, 27)');
      // A change in the first window restyles the second without a reload.
      await p.getByTestId('theme-light').check();
      await themeIs(other, 'light');
      await p.emulateMedia({ colorScheme: 'dark' });
      assert.equal(await bodyStyle(p, 'backgroundColor'), 'rgb(246, 247, 249)', 'light wins over a dark OS');
      // System follows the OS again.
      await p.getByTestId('theme-system').check();
      await themeIs(other, undefined);
      assert.equal(await bodyStyle(p, 'backgroundColor'), 'rgb(20, 22, 27)');
    } finally {
      await other.close();
    }
    // After a reload the choice is still there (and the radio says so).
    await p.getByTestId('theme-dark').check();
    await p.emulateMedia({ colorScheme: 'light' });
    await p.goto(s.mode.url);
    await openSettings(p);
    assert.equal(await p.getByTestId('theme-dark').isChecked(), true);
    assert.equal(await bodyStyle(p, 'backgroundColor'), 'rgb(20, 22, 27)');
    const saved = JSON.parse(
      readFileSync(join(dirname(s.mode.configPath), 'data', 'settings.json'), 'utf8'),
    ) as { app?: { theme?: string } };
    assert.equal(saved.app?.theme, 'dark', 'settings.json keeps the theme');
    await p.getByTestId('theme-system').check();
    await themeIs(p, undefined);
  });
});

test('settings: text size and density change computed styles at once', async (t) => {
  const p = pageOrSkip(t, skipReason, session?.page ?? null);
  const s = session;
  if (!p || !s) return;
  await withEvidence(p, 'sizes', async () => {
    await openSettings(p);
    assert.equal(await bodyStyle(p, 'fontSize'), '14px');
    const padding = () =>
      p.evaluate<string>(
        `getComputedStyle(document.querySelector('[data-testid="gemini-base-url-save"]')).paddingTop`,
      );
    assert.equal(await padding(), '7px');
    await p.getByTestId('font-size').selectOption('18');
    await p.locator('html[style*="--font-size: 18px"]').waitFor({ state: 'attached' });
    assert.equal(await bodyStyle(p, 'fontSize'), '18px');
    await p.getByTestId('density-compact').check();
    await p.locator('html[data-density="compact"]').waitFor({ state: 'attached' });
    assert.equal(await padding(), '4px', 'compact buttons are tighter');
    await shot(p, 'large-compact');
    await p.getByTestId('font-size').selectOption('14');
    await p.getByTestId('density-comfortable').check();
    await p.locator('html[style*="--font-size: 14px"]').waitFor({ state: 'attached' });
    assert.equal(await bodyStyle(p, 'fontSize'), '14px');
    assert.equal(await padding(), '7px');
  });
});

test('settings: quick ask is not applicable in a browser; the data paths are shown and copied', async (t) => {
  const p = pageOrSkip(t, skipReason, session?.page ?? null);
  const s = session;
  if (!p || !s) return;
  await withEvidence(p, 'paths', async () => {
    await openSettings(p);
    const status = p.getByTestId('quick-ask-status');
    assert.equal(await status.getAttribute('data-kind'), 'not-applicable');
    assert.match(await status.innerText(), /desktop app/);
    assert.equal(await p.getByTestId('quick-ask-input').count(), 0, 'nothing to edit here');
    const dataDir = join(dirname(s.mode.configPath), 'data');
    assert.equal(await p.getByTestId('data-dir').inputValue(), dataDir);
    assert.equal(await p.getByTestId('config-path').inputValue(), s.mode.configPath);
    assert.equal(await p.getByTestId('settings-path').inputValue(), join(dataDir, 'settings.json'));
    await p.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(s.mode.url).origin,
    });
    await p.getByTestId('copy-data-dir').click();
    await p.getByTestId('copy-note').filter({ hasText: 'Copied' }).waitFor();
    assert.equal(await p.evaluate<string>('navigator.clipboard.readText()'), dataDir);
    // The shortcut list is the one the handler uses: it names the palette and new chat.
    const list = await p.getByTestId('shortcut-list').innerText();
    assert.match(list, /Ctrl\+K\s+Open the command palette/);
    assert.match(list, /Ctrl\+Shift\+O\s+Start a new chat/);
  });
});

test('settings: the Gemini address set here is where the next chat request goes', async (t) => {
  const keychain = keychainSkipReason('the API key is kept in the OS keychain');
  const p = pageOrSkip(t, skipReason ?? keychain, session?.page ?? null);
  const s = session;
  if (!p || !s || !gemini) return;
  const fake = gemini;
  await withEvidence(p, 'base-url', async () => {
    await openSettings(p);
    assert.equal(await p.getByTestId('gemini-base-url-override').count(), 0, 'no flag or variable here');
    const input = p.getByTestId('gemini-base-url');
    await input.fill('ftp://example.com');
    await p.getByTestId('gemini-base-url-problem').waitFor();
    assert.equal(await p.getByTestId('gemini-base-url-save').isDisabled(), true);
    await input.fill(fake.baseUrl);
    await p.getByTestId('gemini-base-url-save').click();
    await p.getByTestId('gemini-base-url-note').filter({ hasText: 'Saved' }).waitFor();
    await saveKeyInSettings(p, API_KEY, () => (keySaved = true));
    await p.getByTestId('chat-input').fill('Where do you answer from?');
    await p.getByTestId('chat-send').click();
    await p.getByText(ANSWER).waitFor({ timeout: 30_000 });
    assert.equal(fake.generateRequests().length, 1, 'the request reached the address set in Settings');
    // Back to Google's: the field empties and the setting is stored empty.
    await openSettings(p);
    await p.getByTestId('gemini-base-url-reset').click();
    await p.getByTestId('gemini-base-url-note').filter({ hasText: 'Google' }).waitFor();
    assert.equal(await input.inputValue(), '');
  });
});

test('settings: no serious accessibility violations; screenshots light, dark and 800x600', async (t) => {
  const p = pageOrSkip(t, skipReason, session?.page ?? null);
  const s = session;
  if (!p || !s) return;
  await withEvidence(p, 'axe', async () => {
    await openSettings(p);
    for (const scheme of ['light', 'dark'] as const) {
      await p.emulateMedia({ colorScheme: scheme });
      await assertAccessible(p, `Settings (${scheme})`);
      await shot(p, scheme);
    }
    await p.setViewportSize({ width: 800, height: 600 });
    await shot(p, '800x600');
    await p.setViewportSize({ width: 1280, height: 900 });
    await p.emulateMedia({ colorScheme: 'light' });
  });
});
