// Permissions you can see and undo, end to end with real parts: the real renderer in Chromium,
// real browser mode, server-everything over stdio, the real @google/genai client pointed at a
// fake Gemini. "Always allow this tool" on a chat's approval card shows on the Permissions page
// with its chat; the next call runs without asking; Revoke there makes the call after ask again.
// The Trust switch in Servers › Info shows on the Permissions page (and back), and a trusted
// server's call runs without asking. Both views pass axe with no serious or critical
// violation. Screenshots: test-results/e2e/permissions-*.png (light, dark, 800x600).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { type Locator, type Page } from 'playwright-core';
import { functionCall, reply, text } from '../fixtures/fake-gemini.js';
import { pageOrSkip } from '../helpers/chromium.js';
import { chatSkipReason as skipReason, ECHO_FOR_MODEL, EVERYTHING_STDIO } from '../helpers/e2e-app.js';
import { useE2eSession } from '../helpers/e2e-session.js';
import { assertAccessible } from '../helpers/axe.js';

const STEP_TIMEOUT_MS = 30_000;
const API_KEY = `e2e-${randomBytes(12).toString('hex')}`;

const e2e = useE2eSession({
  name: 'permissions',
  skipReason,
  gemini: { apiKey: API_KEY, script: [] },
  config: { mcpServers: { everything: EVERYTHING_STDIO } },
  viewport: { width: 1400, height: 900 },
  connect: ['everything'],
});
const { shot, withEvidence } = e2e;

/** Screenshots of the page as it is now: light, dark, and light at 800x600. */
async function shots(p: Page, name: string): Promise<void> {
  await p.emulateMedia({ colorScheme: 'light' });
  await shot(p, `${name}-light`);
  await p.emulateMedia({ colorScheme: 'dark' });
  await shot(p, `${name}-dark`);
  await p.emulateMedia({ colorScheme: 'light' });
  await p.setViewportSize({ width: 800, height: 600 });
  await shot(p, `${name}-800x600`);
  await p.setViewportSize({ width: 1400, height: 900 });
}

/** Sends one chat message whose model turn calls echo with `message`, then says `answer`. */
async function askEcho(p: Page, message: string, answer: string): Promise<void> {
  e2e.gemini!.enqueue(reply(functionCall(ECHO_FOR_MODEL, { message })), reply(text(answer)));
  await p.getByTestId('nav-chat').click();
  await p.getByTestId('chat-input').fill(`Please echo ${message}.`);
  await p.getByTestId('chat-input').press('Enter');
}

/** Waits for the model's final answer, and the composer to be ready again. */
async function answered(p: Page, answer: string): Promise<void> {
  await p.getByTestId('assistant-text').filter({ hasText: answer }).waitFor({ timeout: STEP_TIMEOUT_MS });
  await p.getByTestId('chat-send').waitFor({ timeout: STEP_TIMEOUT_MS });
}

const doneEchoes = (p: Page, message: string): Locator =>
  p
    .locator('[data-testid="tool-card"][data-status="done"]')
    .filter({ has: p.getByTestId('content-text').filter({ hasText: `Echo: ${message}` }) });

test(
  'permissions: "Always allow" in chat is listed; Revoke makes the next call ask again',
  { timeout: 180_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p || !e2e.mode || !e2e.gemini) return;
    await withEvidence(p, 'revoke', async () => {
      await p.getByTestId('nav-chat').click();
      await e2e.session!.storeKey(p);

      // Before anything is granted the page explains how permissions come about.
      await p.getByTestId('nav-permissions').click();
      const view = p.getByTestId('permissions-view');
      await view.getByTestId('permissions-empty').waitFor();
      await shots(p, 'empty');

      await askEcho(p, 'one', 'Echoed one.');
      const card = p.getByTestId('approval-card');
      await card.waitFor({ timeout: STEP_TIMEOUT_MS });
      await card.getByTestId('approve-always').click();
      await answered(p, 'Echoed one.');
      await doneEchoes(p, 'one').waitFor();

      // The page shows the standing approval with the chat that granted it, live.
      await p.getByTestId('nav-permissions').click();
      const row = view.getByTestId('perm-tool-everything-echo');
      await row.waitFor({ timeout: STEP_TIMEOUT_MS });
      const rowText = (await row.textContent()) ?? '';
      assert.match(rowText, /echo\s*always allowed on /);
      assert.match(rowText, /Please echo one/, 'names the chat it was granted in');
      assert.equal(await view.getByTestId('permissions-empty').count(), 0);
      await assertAccessible(p, '[data-testid="permissions-view"]', '[data-testid="permissions-view"]');
      await shots(p, 'listed');

      // Standing approval: the next call runs without a card.
      await askEcho(p, 'two', 'Echoed two.');
      await answered(p, 'Echoed two.');
      await doneEchoes(p, 'two').waitFor();
      assert.equal(await p.getByTestId('approval-card').count(), 0, 'the allowed tool did not ask');

      // Revoke: the row goes, and the very next call asks again.
      await p.getByTestId('nav-permissions').click();
      await view.getByRole('button', { name: 'Revoke “always allow” for echo on everything' }).click();
      await row.waitFor({ state: 'detached', timeout: STEP_TIMEOUT_MS });
      // The button went with its row: focus stays in the server's card, not the page's top.
      await view
        .locator('[data-testid="permissions-everything"]:focus')
        .waitFor({ timeout: STEP_TIMEOUT_MS });
      await view.getByTestId('permissions-empty').waitFor();
      await askEcho(p, 'three', 'Not echoed.');
      await card.waitFor({ timeout: STEP_TIMEOUT_MS });
      assert.match((await card.textContent()) ?? '', /echo/);
      await shot(p, 'asks-again');
      await card.getByTestId('deny').click();
      await answered(p, 'Not echoed.');
      assert.equal(await doneEchoes(p, 'three').count(), 0, 'the denied call never ran');
    });
  },
);

test(
  'permissions: the Trust switch in Servers › Info shows on the Permissions page, and back',
  { timeout: 120_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p || !e2e.mode || !e2e.gemini) return;
    await withEvidence(p, 'trust', async () => {
      await p.getByTestId('nav-servers').click();
      await p.getByTestId('server-row-everything').click();
      const details = p.getByTestId('server-details-everything');
      await details.getByTestId('tab-info').click();
      const infoSwitch = details.getByRole('switch', { name: 'Trust everything' });
      await infoSwitch.waitFor();
      assert.equal(await infoSwitch.isChecked(), false);
      // Keyboard: focus the switch and press Space.
      await infoSwitch.focus();
      await p.keyboard.press('Space');
      await details
        .locator('[data-testid="trust-switch-everything"]:checked')
        .waitFor({ timeout: STEP_TIMEOUT_MS });
      assert.match(
        (await details.getByTestId('server-permissions').textContent()) ?? '',
        /runs without asking/,
      );
      // The server's own instructions box (not part of this feature) scrolls without being
      // focusable (scrollable-region-focusable); the rest of the panel is held to the rule.
      await assertAccessible(p, '[data-testid="server-details-everything"]', {
        include: '[data-testid="server-details-everything"]',
        exclude: '.server-info > pre.content-text',
      });
      await shots(p, 'server-info');

      // The Permissions page shows it too (same store, live).
      await p.getByTestId('nav-permissions').click();
      const view = p.getByTestId('permissions-view');
      const pageSwitch = view.getByRole('switch', { name: 'Trust everything' });
      assert.equal(await pageSwitch.isChecked(), true);
      assert.equal(await view.getByTestId('permissions-empty').count(), 0, 'trust counts as a permission');
      await assertAccessible(p, '[data-testid="permissions-view"]', '[data-testid="permissions-view"]');
      await shots(p, 'trusted');

      // A trusted server's tool runs without asking.
      await askEcho(p, 'four', 'Echoed four.');
      await answered(p, 'Echoed four.');
      await doneEchoes(p, 'four').waitFor();
      assert.equal(await p.getByTestId('approval-card').count(), 0, 'trusted: no approval card');

      // Off on the Permissions page: Servers › Info follows.
      await p.getByTestId('nav-permissions').click();
      await pageSwitch.click();
      await view.getByTestId('permissions-empty').waitFor({ timeout: STEP_TIMEOUT_MS });
      await p.getByTestId('nav-servers').click();
      assert.equal(await infoSwitch.isChecked(), false);
    });
  },
);
