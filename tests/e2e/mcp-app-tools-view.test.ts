// MCP App views opened from the Tools view (issue 24 §1, items 1 and 4): a view's request card
// appears with the view (under it, in Tools), never in a conversation, and offers nothing "for
// this chat" outside one; the Tools list marks the tools that open a view; the view's "Send
// Message" says what became of it and can go to a new chat. Real parts: the basic-react MCP App
// example server from npm over stdio, the real renderer in Chromium, the real @google/genai
// client against the wire-exact fake Gemini. Screenshots in light, dark and 800x600:
// test-results/e2e/mcp-app-tools-view-*.png; axe at zero serious or critical in each.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { reply, text } from '../fixtures/fake-gemini.js';
import { callInTools, cardBelowView, readyView, sendInNewChat, STEP } from '../helpers/app-view-e2e.js';
import { chromiumSkipReason, pageOrSkip } from '../helpers/chromium.js';
import { modelKeySkipReason } from '../helpers/e2e-app.js';
import { openConnected, useE2eSession } from '../helpers/e2e-session.js';
import { appServer } from '../helpers/server-processes.js';
import { shotInVariants } from '../helpers/variant-shots.js';

const API_KEY = `e2e-${randomBytes(12).toString('hex')}`;
const skipReason = chromiumSkipReason ?? modelKeySkipReason;
const PREFIX = 'mcp-app-tools-view';

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

test(
  'a view\'s request in Tools shows under the view, in no conversation, without "for this chat"',
  { timeout: 120_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p) return;
    await withEvidence(p, `${PREFIX}-request`, async () => {
      // A conversation was open last: the card used to land above its first message.
      e2e.gemini!.enqueue(reply(text('Hello there.')));
      await sendInNewChat(p, 'hello');
      await p.getByTestId('assistant-text').filter({ hasText: 'Hello there.' }).waitFor({ timeout: STEP });

      const detail = await callInTools(p, 'basic', 'get-time');
      const { doc } = await readyView(p, detail);
      await doc.getByRole('button', { name: 'Get Server Time' }).click();
      const card = detail.getByTestId('approval-card');
      await card.waitFor({ timeout: STEP });
      assert.ok(await cardBelowView(detail), 'the card is below the view');
      assert.equal(await card.getByTestId('approve-chat').count(), 0, 'no "for this chat" outside a chat');
      await card.getByTestId('approve-view').waitFor();
      await shotInVariants(p, `${PREFIX}-request`, { show: card, axe: '[data-testid="tools-view"]' });

      await p.getByTestId('nav-chat').click();
      await p.getByTestId('message-user').filter({ hasText: 'hello' }).waitFor({ timeout: STEP });
      assert.equal(await p.getByTestId('chat-view').getByTestId('approval-card').count(), 0, 'not in chat');

      await p.getByTestId('nav-tools').click();
      await card.getByTestId('approve-once').click();
      await card.waitFor({ state: 'detached', timeout: STEP });
      await doc
        .locator('code')
        .filter({ hasText: /\d{4}-\d\d-\d\dT/ })
        .first()
        .waitFor({ timeout: STEP });
    });
  },
);

test('the Tools list marks the tools that open a view', { timeout: 60_000 }, async (t) => {
  const p = pageOrSkip(t, skipReason, e2e.page);
  if (!p) return;
  await withEvidence(p, `${PREFIX}-badge`, async () => {
    await p.getByTestId('nav-tools').click();
    await p.getByTestId('tool-search').fill('');
    const withView = p.getByTestId('tool-item-sysmon-get-system-info');
    await withView.waitFor({ timeout: STEP });
    assert.match((await withView.getByTestId('tool-view-badge').textContent()) ?? '', /view/i);
    const plain = p.getByTestId('tool-item-sysmon-poll-system-stats');
    if ((await plain.count()) > 0)
      assert.equal(
        await plain.getByTestId('tool-view-badge').count(),
        0,
        'a tool without a view has no mark',
      );
    await shotInVariants(p, `${PREFIX}-badge`, { show: withView, axe: '[data-testid="tools-view"]' });
  });
});

test(
  '"Send Message" from a view in Tools says it was not sent, and can go to a new chat',
  { timeout: 120_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p) return;
    await withEvidence(p, `${PREFIX}-message`, async () => {
      const detail = await callInTools(p, 'basic', 'get-time');
      const { doc } = await readyView(p, detail);
      const words = `from the tools view ${randomBytes(3).toString('hex')}`;
      await doc.locator('textarea').first().fill(words);
      await doc.getByRole('button', { name: 'Send Message' }).click();
      const note = detail.getByTestId('app-view-message');
      await note.waitFor({ timeout: STEP });
      assert.match((await note.textContent()) ?? '', /not part of a chat/i);
      assert.match((await note.textContent()) ?? '', new RegExp(words));
      await shotInVariants(p, `${PREFIX}-message`, { show: note, axe: '[data-testid="tools-view"]' });

      e2e.gemini!.enqueue(reply(text('Got the view message.')));
      await note.getByTestId('app-view-message-send').click();
      await p.getByTestId('chat-view').waitFor({ timeout: STEP });
      await p.getByTestId('message-user').filter({ hasText: words }).waitFor({ timeout: STEP });
      await p
        .getByTestId('assistant-text')
        .filter({ hasText: 'Got the view message.' })
        .waitFor({ timeout: STEP });
    });
  },
);
