// The quick-ask view end to end with real parts: the real renderer in real Chromium through
// browser mode (the same page the desktop app's always-on-top window loads, with
// ?view=quick-ask), the real @google/genai client against the fake Gemini, server-everything
// over stdio. A question asked there runs on the same engine and approval policy as the
// main window (the echo call waits for "Allow once" inside the quick-ask view), and "Open in
// main window" switches a second page, the main window, to that conversation. The Electron
// window, tray and shortcut themselves are covered by tests/e2e/electron-app.test.ts where
// an Electron binary exists. Screenshots land in test-results/e2e/quick-ask-*.png.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { type Browser, type Page } from 'playwright-core';
import { KeychainSecretStore } from '../../electron/host/stores/secret-store.js';
import {
  functionCall,
  reply,
  splitText,
  startFakeGemini,
  text,
  type FakeGemini,
} from '../fixtures/fake-gemini.js';
import {
  chromiumSkipReason,
  launchChromium,
  logPageErrors,
  saveScreenshot,
  withEvidence as keepEvidence,
} from '../helpers/chromium.js';
import { repoRoot, startBrowserMode, type BrowserMode } from '../helpers/browser-mode.js';
import { EVERYTHING_SERVER as EVERYTHING } from '../helpers/e2e-app.js';
import { KEYCHAIN_HOWTO } from '../helpers/keychain-check.js';

const STEP_TIMEOUT_MS = 30_000;
const API_KEY = `qa-${randomBytes(12).toString('hex')}`;
const QUESTION = 'Echo "quick" for me, please.';
const ANSWER = 'Done: the echo said Echo: quick';

const skipReason =
  chromiumSkipReason ??
  (!existsSync(EVERYTHING)
    ? `${EVERYTHING} not found (npm install)`
    : process.platform === 'linux' && !process.env.DBUS_SESSION_BUS_ADDRESS
      ? `no Secret Service session (DBUS_SESSION_BUS_ADDRESS unset): the API key lives in the OS keychain; ${KEYCHAIN_HOWTO}`
      : null);

let gemini: FakeGemini | null = null;
let mode: BrowserMode | null = null;
let browser: Browser | null = null;
let keychain: KeychainSecretStore | null = null;

before(async () => {
  if (skipReason) {
    console.log(`quick-ask e2e skipped: ${skipReason}`);
    return;
  }
  gemini = await startFakeGemini({
    apiKey: API_KEY,
    script: [
      reply(functionCall('everything__echo', { message: 'quick' })),
      { ...reply(...splitText(ANSWER, 3)), chunkDelayMs: 40 },
      // The second test's turn: an argument that is a path outside the shared folder.
      reply(functionCall('everything__echo', { message: '/etc/passwd' })),
      reply(text('Not echoed.')),
    ],
  });
  // The key goes into the real keychain under a service of this run's own, as Settings would put it there.
  const service = `MCP Desk quick-ask e2e ${randomBytes(6).toString('hex')}`;
  keychain = new KeychainSecretStore({ service });
  await keychain.set('geminiApiKey', API_KEY);
  process.env.MCP_DESK_GEMINI_BASE_URL = gemini.baseUrl;
  process.env.MCP_DESK_KEYCHAIN_SERVICE = service;
  mode = await startBrowserMode({
    config: { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } },
  });
  browser = await launchChromium();
});

after(async () => {
  await keychain?.delete('geminiApiKey').catch(() => undefined);
  await browser?.close();
  await mode?.stop();
  await gemini?.close();
});

/** The quick-ask page's URL: the printed URL with ?view=quick-ask before its #token fragment. */
function quickAskUrl(url: string): string {
  const u = new URL(url);
  u.search = '?view=quick-ask';
  return u.toString();
}

function evidence(pages: Page[], steps: () => Promise<void>): Promise<void> {
  return keepEvidence(pages, 'quick-ask', steps, () => mode && `browser mode output:\n${mode.output()}`);
}

test(
  'quick ask: a question runs with approvals in the small window and opens in the main window',
  { timeout: 120_000 },
  async (t) => {
    if (skipReason || !browser || !mode) {
      t.skip(skipReason ?? 'setup failed');
      return;
    }
    const main = await browser.newPage({ viewport: { width: 1300, height: 850 } });
    const quick = await browser.newPage({ viewport: { width: 620, height: 460 } });
    for (const p of [main, quick]) logPageErrors(p);
    await evidence([main, quick], async () => {
      await main.goto(mode!.url);
      await main.getByTestId('nav-servers').click();
      await main
        .locator('[data-testid="server-state-everything"][data-state="connected"]')
        .waitFor({ timeout: 60_000 });
      // The main window is elsewhere (Folders), so switching to Chat is the quick-ask's doing.
      await main.getByTestId('nav-roots').click();

      await quick.goto(quickAskUrl(mode!.url));
      await quick.getByTestId('quick-ask').waitFor();
      assert.equal(
        await quick.getByTestId('nav-chat').count(),
        0,
        'the quick-ask window is not the full app',
      );
      assert.equal(await quick.getByTestId('quick-ask-open-main').isDisabled(), true, 'nothing to open yet');
      await quick.getByTestId('quick-ask-input').fill(QUESTION);
      await quick.getByTestId('quick-ask-input').press('Enter');

      // Same engine, same policy: the untrusted echo call waits for a person, here.
      const card = quick.getByTestId('approval-card');
      await card.waitFor({ timeout: STEP_TIMEOUT_MS });
      assert.deepEqual(JSON.parse((await card.getByTestId('approval-args').textContent()) ?? 'null'), {
        message: 'quick',
      });
      await saveScreenshot(quick, 'quick-ask-01-approval', false);
      await card.getByTestId('approve-once').click();
      await quick
        .getByTestId('assistant-text')
        .filter({ hasText: ANSWER })
        .waitFor({ timeout: STEP_TIMEOUT_MS });
      await quick.locator('[data-testid="tool-card"][data-status="done"]').waitFor();
      await saveScreenshot(quick, 'quick-ask-02-answer', false);

      await quick.getByTestId('quick-ask-open-main').click();
      await main.getByTestId('chat-view').waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
      await main
        .getByTestId('message-user')
        .filter({ hasText: QUESTION })
        .waitFor({ timeout: STEP_TIMEOUT_MS });
      await main
        .getByTestId('assistant-text')
        .filter({ hasText: ANSWER })
        .waitFor({ timeout: STEP_TIMEOUT_MS });
      const selected = main.locator('.conversation-item.selected');
      assert.match(
        (await selected.textContent()) ?? '',
        /Echo "quick" for me/,
        'the conversation is titled by the question and selected',
      );
      await saveScreenshot(main, 'quick-ask-03-main-window', false);

      // A follow-up continues the same conversation; "New question" starts another.
      assert.equal(gemini!.generateRequests().length, 2);
      await quick.getByTestId('quick-ask-new').click();
      assert.equal(await quick.getByTestId('quick-ask-open-main').isDisabled(), true);
    });
  },
);

test(
  'quick ask: a call naming a path outside the shared folders shows the warning on its approval card',
  { timeout: 120_000 },
  async (t) => {
    if (skipReason || !browser || !mode) {
      t.skip(skipReason ?? 'setup failed');
      return;
    }
    const main = await browser.newPage();
    const quick = await browser.newPage({ viewport: { width: 620, height: 560 } });
    await evidence([main, quick], async () => {
      // Share one folder through the Folders view, so /etc/passwd lies outside the roots.
      await main.goto(mode!.url);
      await main.getByTestId('nav-roots').click();
      await main.getByTestId('root-path-input').fill(repoRoot);
      await main.getByTestId('root-add').click();
      await main.getByTestId('root-row').first().waitFor();

      await quick.goto(quickAskUrl(mode!.url));
      await quick.getByTestId('quick-ask-input').fill('Echo the password file path.');
      await quick.getByTestId('quick-ask-input').press('Enter');
      const card = quick.getByTestId('approval-card');
      await card.waitFor({ timeout: STEP_TIMEOUT_MS });
      await card.getByTestId('approval-outside-roots').waitFor();
      assert.equal(
        (await card.getByTestId('approval-outside-path').first().textContent())?.trim(),
        '/etc/passwd',
      );
      await saveScreenshot(quick, 'quick-ask-04-outside-roots', false);
      await card.getByTestId('deny').click();
      await quick
        .getByTestId('assistant-text')
        .filter({ hasText: 'Not echoed.' })
        .waitFor({ timeout: STEP_TIMEOUT_MS });
    });
  },
);
