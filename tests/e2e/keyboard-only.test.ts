// Issue 12, must-show 3: the whole first session without a mouse. From an empty data folder a
// person sets the model key, adds a server (pasting its whole command line), calls a tool,
// starts a chat, approves a call ("Always allow"), answers an elicitation form (its first
// invalid field gets focus), and revokes the approval on the Permissions page — with Tab,
// Enter, Space, Esc and the app's shortcuts only. A script in the page counts every pointer
// and mouse event (a click made by Enter or Space has `detail` 0 and no pointerdown), and the
// test ends by asserting the count is zero. Axe checks the chat with its approval and its form. Screenshots: test-results/e2e/keyboard-only-*.png.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { functionCall, reply, text } from '../fixtures/fake-gemini.js';
import { pageOrSkip } from '../helpers/chromium.js';
import { chatSkipReason as skipReason, ECHO_FOR_MODEL, EVERYTHING_SERVER } from '../helpers/e2e-app.js';
import { useE2eSession } from '../helpers/e2e-session.js';
import { assertAccessible } from '../helpers/axe.js';

const STEP_TIMEOUT_MS = 30_000;
const CONNECT_TIMEOUT_MS = 60_000;
const API_KEY = `e2e-${randomBytes(12).toString('hex')}`;
const FINAL = 'Thanks, Ada — all done.';
const mod = process.platform === 'darwin' ? 'Meta' : 'Control';

// Counts every event only a pointing device makes; a keyboard-made click has detail 0.
const COUNT_MOUSE = `(() => {
  window.__mouseEvents = [];
  const note = (e) => window.__mouseEvents.push(e.type + ' on ' + (e.target && e.target.tagName));
  for (const type of ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'dblclick', 'contextmenu', 'wheel'])
    window.addEventListener(type, note, true);
  window.addEventListener('click', (e) => { if (e.detail > 0) note(e); }, true);
})()`;

const e2e = useE2eSession({
  name: 'keyboard-only',
  skipReason,
  gemini: {
    apiKey: API_KEY,
    script: [
      reply(text('Echoing first.'), functionCall(ECHO_FOR_MODEL, { message: 'from chat' })),
      reply(functionCall('everything__trigger-elicitation-request', {})),
      reply(text(FINAL)),
    ],
  },
  config: { mcpServers: {} },
  viewport: { width: 1300, height: 900 },
  ownContext: true,
  ready: async (session) => {
    await session.page.context().addInitScript(COUNT_MOUSE);
  },
});
const { shot, withEvidence } = e2e;

/** Presses Tab (or Shift+Tab) until the focused element matches `selector`; fails after `max`. */
async function tabTo(p: Page, selector: string, { back = false, max = 80 } = {}): Promise<void> {
  for (let i = 0; i < max; i++) {
    const there = await p.evaluate(
      (s) => document.activeElement instanceof Element && document.activeElement.matches(s),
      selector,
    );
    if (there) return;
    await p.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  const at = await p.evaluate(() => document.activeElement?.outerHTML.slice(0, 160) ?? 'nothing');
  throw new Error(`Tab never reached ${selector} in ${max} presses (focus is on ${at})`);
}

/** Opens the command palette, types `query` and takes the first match. */
async function palette(p: Page, query: string): Promise<void> {
  await p.keyboard.press(`${mod}+K`);
  // The palette's code loads on first use: type once its search box has focus.
  await p.waitForFunction(
    () => document.activeElement?.getAttribute('data-testid') === 'command-palette-input',
    undefined,
    { timeout: STEP_TIMEOUT_MS },
  );
  await p.keyboard.type(query);
  await p.keyboard.press('Enter');
}

const focusedTestId = (p: Page): Promise<string | null> =>
  p.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);

test(
  'keyboard only: key, server, tool, chat, approval, elicitation, revoke',
  { timeout: 300_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p || !e2e.session || !e2e.gemini) return;
    await withEvidence(p, 'flow', async () => {
      await p.goto(e2e.session!.mode.url);
      await p.getByTestId('first-run').waitFor({ timeout: STEP_TIMEOUT_MS });

      // 1. The model key, from the first-run checklist: its button opens the key field.
      await tabTo(p, '[data-testid="first-run-go-key"]');
      await p.keyboard.press('Enter');
      await p.getByTestId('api-key-input').waitFor();
      await tabTo(p, '[data-testid="api-key-input"]');
      await p.keyboard.type(API_KEY);
      e2e.session!.keyStored();
      await tabTo(p, '[data-testid="api-key-save"]');
      await p.keyboard.press('Enter');
      await p
        .locator('[data-testid="api-key-status"][data-set="true"]')
        .waitFor({ timeout: STEP_TIMEOUT_MS });
      await p.keyboard.press('Escape');
      await p.getByTestId('settings-panel').waitFor({ state: 'hidden', timeout: STEP_TIMEOUT_MS });
      await p
        .locator('[data-testid="first-run-key"][data-done="true"]')
        .waitFor({ timeout: STEP_TIMEOUT_MS });

      // 2. A server: the checklist opens Servers with the Add form; the whole command line goes
      //    into Command and is split into command and arguments when focus leaves it.
      await tabTo(p, '[data-testid="first-run-go-server"]');
      await p.keyboard.press('Enter');
      await p.getByTestId('server-form').waitFor();
      await tabTo(p, '[data-testid="server-name"]');
      await p.keyboard.type('everything');
      await tabTo(p, '[data-testid="server-command"]');
      await p.keyboard.type(`${JSON.stringify(process.execPath)} ${JSON.stringify(EVERYTHING_SERVER)} stdio`);
      await p.keyboard.press('Tab');
      await p.waitForFunction(
        (node) =>
          (document.querySelector('[data-testid="server-command"]') as HTMLInputElement).value === node,
        process.execPath,
        { timeout: STEP_TIMEOUT_MS },
      );
      assert.equal(
        await p.getByTestId('server-command').inputValue(),
        process.execPath,
        'the command line was split',
      );
      await shot(p, '01-server-form');
      await tabTo(p, '[data-testid="server-form-submit"]');
      await p.keyboard.press('Enter');
      await p
        .locator('[data-testid="server-state-everything"][data-state="connected"]')
        .waitFor({ timeout: CONNECT_TIMEOUT_MS });

      // 3. A tool, through the command palette: echo opens in Tools; fill its form and call it.
      await palette(p, 'echo');
      const detail = p.getByTestId('tool-detail');
      await detail.filter({ hasText: 'echo' }).waitFor({ timeout: STEP_TIMEOUT_MS });
      await tabTo(p, '[data-testid="field-message"]');
      await p.keyboard.type('by keyboard');
      await tabTo(p, '[data-testid="call-tool"]');
      await p.keyboard.press('Enter');
      await detail.getByText('Echo: by keyboard').waitFor({ timeout: STEP_TIMEOUT_MS });
      await shot(p, '02-tool-called');

      // 4. A chat: new chat, focus the composer, ask.
      await p.keyboard.press(`${mod}+Shift+O`);
      await p.keyboard.press(`${mod}+Shift+L`);
      assert.equal(await focusedTestId(p), 'chat-input', 'the shortcut focuses the composer');
      await p.keyboard.type('Echo something, then ask me my name.');
      await p.keyboard.press('Enter');

      // 5. Approve echo for good.
      const approval = p.getByTestId('approval-card');
      await approval.waitFor({ timeout: STEP_TIMEOUT_MS });
      // Must-show 2: the chat with a tool card and an approval passes axe.
      await assertAccessible(p, 'chat with a tool card and an approval');
      await tabTo(p, '[data-testid="approve-always"]', { back: true });
      await p.keyboard.press('Enter');
      await p
        .locator('[data-testid="tool-card"][data-status="done"]')
        .filter({ hasText: 'Echo: from chat' })
        .waitFor({ timeout: STEP_TIMEOUT_MS });

      // 6. The elicitation tool asks too (once), then its form shows inline in the chat.
      await approval.waitFor({ timeout: STEP_TIMEOUT_MS });
      await tabTo(p, '[data-testid="approve-once"]', { back: true });
      await p.keyboard.press('Enter');
      const form = p.locator('[data-testid="tool-card"] [data-testid="elicitation-card"][data-mode="form"]');
      await form.waitFor({ timeout: STEP_TIMEOUT_MS });
      await tabTo(p, '[data-testid="tool-card"] [data-testid="elicit-accept"]', { back: true });
      await p.keyboard.press('Enter');
      // Submitting with the required name empty puts focus on that field.
      await form.getByTestId('elicit-error-name').waitFor({ timeout: STEP_TIMEOUT_MS });
      await p.waitForFunction(
        () => document.activeElement?.getAttribute('data-testid') === 'elicit-field-name',
        undefined,
        { timeout: STEP_TIMEOUT_MS },
      );
      await p.keyboard.type('Ada Lovelace');
      await shot(p, '03-elicitation');
      await assertAccessible(p, 'chat with an inline elicitation form');
      await tabTo(p, '[data-testid="tool-card"] [data-testid="elicit-accept"]');
      await p.keyboard.press('Enter');
      await p.getByTestId('assistant-text').filter({ hasText: FINAL }).waitFor({ timeout: STEP_TIMEOUT_MS });
      const asked = JSON.stringify(e2e.gemini!.requests.at(-1)?.body ?? '');
      assert.match(asked, /Ada Lovelace/, 'the form answer reached the server and the model saw its result');

      // 7. Revoke the standing approval on the Permissions page.
      await palette(p, 'Permissions');
      const row = p.getByTestId('perm-tool-everything-echo');
      await row.waitFor({ timeout: STEP_TIMEOUT_MS });
      await tabTo(p, '[data-testid="revoke-tool-everything-echo"]');
      await p.keyboard.press('Enter');
      await row.waitFor({ state: 'detached', timeout: STEP_TIMEOUT_MS });
      await shot(p, '04-revoked');

      const mouse = await p.evaluate(() => (window as unknown as { __mouseEvents: string[] }).__mouseEvents);
      assert.deepEqual(mouse, [], 'not a single mouse or pointer event');
    });
  },
);
