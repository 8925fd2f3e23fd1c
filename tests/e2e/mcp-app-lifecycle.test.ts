// MCP App views whose life follows their tool call in chat (issue 24 §1, items 2-4): Stop during
// an App tool's approval mounts no view and leaves nothing asking; the approval that ran an App
// tool covers its view's calls of that same tool for that result, and a view's first card for
// another tool offers "Allow this view's calls", after which it asks no more; a floating view
// docks above the composer, so the Send button stays uncovered (also at 800x600). Real parts: two
// MCP App example servers from npm over stdio, the real renderer in Chromium, the real
// @google/genai client against the wire-exact fake Gemini. Screenshots in light, dark and 800x600:
// test-results/e2e/mcp-app-lifecycle-*.png; axe at zero serious or critical in each.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { reply, text } from '../fixtures/fake-gemini.js';
import {
  cardBelowView,
  firstOf,
  modelCalls,
  overlaps,
  readyView,
  STEP,
  toolCard,
} from '../helpers/app-view-e2e.js';
import { chromiumSkipReason, pageOrSkip } from '../helpers/chromium.js';
import { modelKeySkipReason } from '../helpers/e2e-app.js';
import { openConnected, useE2eSession } from '../helpers/e2e-session.js';
import { appServer } from '../helpers/server-processes.js';
import { shotInVariants } from '../helpers/variant-shots.js';

const API_KEY = `e2e-${randomBytes(12).toString('hex')}`;
const skipReason = chromiumSkipReason ?? modelKeySkipReason;
const PREFIX = 'mcp-app-lifecycle';

const e2e = useE2eSession({
  name: PREFIX,
  skipReason,
  gemini: { apiKey: API_KEY, script: [] },
  config: { mcpServers: { basic: appServer('basicReact'), sysmon: appServer('systemMonitor') } },
  viewport: { width: 1300, height: 900 },
  ownContext: true,
  ready: async (session) => {
    await openConnected(session.page, session.mode.url, ['basic', 'sysmon']);
    await session.storeKey(session.page);
  },
});
const { withEvidence } = e2e;

/** The system monitor view's memory figure has appeared (its poll-system-stats call ran). */
const MEMORY_SHOWN = () => /\d+(\.\d+)?%/.test(document.body.innerText.split('MEMORY')[1] ?? '');

test(
  "Stop during an App tool's approval mounts no view, and nothing asks after it",
  { timeout: 120_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p) return;
    await withEvidence(p, `${PREFIX}-stop`, async () => {
      const approval = await modelCalls(p, e2e.gemini!, 'sysmon', 'get-system-info', null);
      await p.getByTestId('chat-stop').click();
      const card = toolCard(p, 'get-system-info', 'cancelled');
      await card.waitFor({ timeout: STEP });
      // The view (or its loading line) would render in the same update as the status.
      assert.equal(await card.locator('.app-view').count(), 0, 'a cancelled call mounts no view');
      assert.equal(await card.getByText('Opening the interactive view').count(), 0);
      await approval.waitFor({ state: 'detached', timeout: STEP });
      await p.getByTestId('run-end').filter({ hasText: 'Stopped.' }).waitFor({ timeout: STEP });

      // One more turn in the same conversation: a view that had mounted would have asked by then.
      e2e.gemini!.enqueue(reply(text('Still here.')));
      await p.getByTestId('chat-input').fill('are you there?');
      await p.getByTestId('chat-input').press('Enter');
      await p.getByTestId('assistant-text').filter({ hasText: 'Still here.' }).waitFor({ timeout: STEP });
      assert.equal(await p.getByTestId('approval-card').count(), 0, 'nothing asks after Stopped.');
      assert.equal(await p.locator('.app-view').count(), 0);
      await shotInVariants(p, `${PREFIX}-stopped`, { show: card, axe: '[data-testid="chat-view"]' });
    });
  },
);

test(
  "the approval that ran an App tool covers its view's calls of that tool for that result",
  { timeout: 120_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p) return;
    await withEvidence(p, `${PREFIX}-covered`, async () => {
      const approval = await modelCalls(p, e2e.gemini!, 'basic', 'get-time');
      await approval.getByTestId('approve-once').click();
      const card = toolCard(p, 'get-time', 'done');
      const { doc } = await readyView(p, card);
      const shown = doc.locator('code').first();
      await shown.filter({ hasText: /\d{4}-\d\d-\d\dT/ }).waitFor({ timeout: STEP });
      const first = (await shown.textContent()) ?? '';
      await doc.getByRole('button', { name: 'Get Server Time' }).click();
      const outcome = await firstOf({
        asked: p.getByTestId('approval-card').first().waitFor({ timeout: STEP }),
        ran: doc.waitForFunction(
          (before) => {
            const now = document.querySelector('code')?.textContent ?? '';
            return /\d{4}-\d\d-\d\dT/.test(now) && now !== before;
          },
          first,
          { timeout: STEP },
        ),
      });
      assert.equal(outcome, 'ran', "the view's get-time ran without a second card");
      assert.equal(await p.getByTestId('approval-card').count(), 0);
      await shotInVariants(p, `${PREFIX}-covered`, { show: card, axe: '[data-testid="chat-view"]' });
    });
  },
);

test(
  'a view\'s first card for another tool offers "Allow this view\'s calls"; its later calls then run',
  { timeout: 120_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p) return;
    await withEvidence(p, `${PREFIX}-view-calls`, async () => {
      const approval = await modelCalls(p, e2e.gemini!, 'sysmon', 'get-system-info');
      await approval.getByTestId('approve-once').click();
      const card = toolCard(p, 'get-system-info', 'done');
      const { doc } = await readyView(p, card);
      const asked = p.getByTestId('approval-card').filter({ hasText: 'poll-system-stats' }).first();
      await asked.waitFor({ timeout: STEP });
      // The card sits with the view that asked: inside its tool card, below the view's frame.
      assert.equal(await card.getByTestId('approval-card').count(), 1, 'the card is in the tool card');
      assert.ok(await cardBelowView(card), 'below the view');
      assert.equal(await asked.getByTestId('approve-chat').count(), 1, 'in a chat, "for this chat" stays');
      await asked.getByTestId('approve-view').waitFor({ timeout: STEP });
      await shotInVariants(p, `${PREFIX}-view-card`, { show: asked, axe: '[data-testid="approval-card"]' });
      await asked.getByTestId('approve-view').click();
      await doc.waitForFunction(MEMORY_SHOWN, undefined, { timeout: STEP });
      // The view polls again on its own (every few seconds); that poll must not ask.
      const stamp = await doc.evaluate(() => document.body.innerText);
      const outcome = await firstOf({
        asked: p.getByTestId('approval-card').first().waitFor({ timeout: STEP }),
        polled: doc.waitForFunction((before) => document.body.innerText !== before, stamp, {
          timeout: STEP,
        }),
      });
      assert.equal(outcome, 'polled', 'the next poll ran without a card');
    });
  },
);

test('a floating view docks above the composer: Send stays uncovered', { timeout: 120_000 }, async (t) => {
  const p = pageOrSkip(t, skipReason, e2e.page);
  if (!p) return;
  await withEvidence(p, `${PREFIX}-pip`, async () => {
    const approval = await modelCalls(p, e2e.gemini!, 'basic', 'get-time');
    await approval.getByTestId('approve-once').click();
    const card = toolCard(p, 'get-time', 'done');
    const { view } = await readyView(p, card);
    await p.getByTestId('assistant-text').filter({ hasText: 'Called get-time.' }).waitFor({ timeout: STEP });
    await card.getByTestId('app-view-pip').click();
    const pip = p.locator('[data-testid="app-view"][data-display-mode="pip"]');
    await pip.waitFor({ timeout: STEP });
    for (const size of [
      { width: 1300, height: 900 },
      { width: 800, height: 600 },
    ]) {
      await p.setViewportSize(size);
      // The dock follows the composer as the window changes; wait for it, not for a time.
      await p.waitForFunction(() => {
        const panel = document.querySelector('[data-display-mode="pip"]')?.getBoundingClientRect();
        const composer = document.querySelector('[data-testid="composer"]')?.getBoundingClientRect();
        return !!panel && !!composer && panel.bottom <= composer.top + 1;
      });
      for (const control of ['chat-send', 'chat-input'])
        assert.equal(
          await overlaps(pip, p.getByTestId(control)),
          false,
          `${control} is uncovered at ${size.width}`,
        );
    }
    await p.setViewportSize({ width: 1300, height: 900 });
    await shotInVariants(p, `${PREFIX}-pip`, { axe: { exclude: '[data-testid="app-view-frame"]' } });
    await pip.getByTestId('app-view-exit-pip').click();
    await view.and(p.locator('[data-display-mode="inline"]')).waitFor({ timeout: STEP });
  });
});
