// What an MCP App view asks of the host, end to end (issue 13 item 3, must-show 1): the system
// monitor's view polls its app-only tool `poll-system-stats` on its own; the call waits on an
// approval card in the conversation that says the view asked, and once allowed its result
// reaches the view (the memory gauge shows a number). The basic-react view's "Send Message"
// (`ui/message`) adds a message to the conversation, labelled as from the view, and the model
// (the wire-exact fake Gemini) answers it.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { declarationsOf, functionCall, reply, text, type RecordedRequest } from '../fixtures/fake-gemini.js';
import { chromiumSkipReason, pageOrSkip } from '../helpers/chromium.js';
import { modelKeySkipReason } from '../helpers/e2e-app.js';
import { openConnected, useE2eSession } from '../helpers/e2e-session.js';
import { appServer } from '../helpers/server-processes.js';

const API_KEY = `e2e-${randomBytes(12).toString('hex')}`;
const STEP = 30_000;
const VIEWPORT = { width: 1300, height: 900 };
const skipReason = chromiumSkipReason ?? modelKeySkipReason;

const e2e = useE2eSession({
  name: 'mcp-app-requests',
  skipReason,
  gemini: { apiKey: API_KEY, script: [] },
  config: { mcpServers: { basic: appServer('basicReact'), sysmon: appServer('systemMonitor') } },
  viewport: VIEWPORT,
  ownContext: true,
  ready: async (session) => {
    await openConnected(session.page, session.mode.url, ['basic', 'sysmon']);
    await session.storeKey(session.page);
  },
});
const { shot, withEvidence } = e2e;

/** A new conversation in which the model (the fake) calls `tool`; approve it and wait for its view. */
async function viewThroughChat(
  p: Page,
  server: string,
  tool: string,
): Promise<{ frame: Frame; card: string }> {
  e2e.gemini!.enqueue(reply(functionCall(`${server}__${tool}`, {})), reply(text(`Called ${tool}.`)));
  await p.getByTestId('nav-chat').click();
  const before = await p.locator('[data-testid^="conversation-item-"]').count();
  await p.getByTestId('new-chat').click();
  await p.locator('[data-testid^="conversation-item-"]').nth(before).waitFor({ timeout: STEP });
  await p.getByTestId('chat-input').fill(`please call ${tool}`);
  await p.getByTestId('chat-input').press('Enter');
  const approval = p.getByTestId('approval-card').filter({ hasText: tool });
  await approval.waitFor({ timeout: STEP });
  await approval.getByTestId('approve-once').click();
  const card = p.locator('[data-testid="tool-card"][data-status="done"]').filter({ hasText: tool });
  await card.getByTestId('app-view').and(p.locator('[data-state="ready"]')).waitFor({ timeout: STEP });
  const viewId = (await card.getByTestId('app-view-frame').getAttribute('data-view-id')) ?? '';
  await p.frameLocator(`[data-view-id="${viewId}"]`).locator('#view').waitFor({ timeout: STEP });
  const outer = await p.locator(`[data-view-id="${viewId}"]`).elementHandle();
  const inner = (await outer?.contentFrame())?.childFrames()[0];
  assert.ok(inner, 'the proxy built its inner frame');
  return { frame: inner, card: viewId };
}

/** The texts of a request's user turns. */
function userTurns(request: RecordedRequest | undefined): string[] {
  return (request?.body?.contents ?? [])
    .filter((c) => c.role === 'user')
    .map((c) =>
      (c.parts ?? [])
        .map((part) => ('text' in part && typeof part.text === 'string' ? part.text : ''))
        .join(''),
    );
}

test(
  "a view's own tool call asks the person, then its result reaches the view",
  { timeout: 90_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p) return;
    await withEvidence(p, 'app-call', async () => {
      const { frame } = await viewThroughChat(p, 'sysmon', 'get-system-info');
      // The view polls poll-system-stats (visibility ["app"]) by itself: an untrusted server asks.
      const asked = p.getByTestId('approval-card').filter({ hasText: 'poll-system-stats' }).first();
      await asked.waitFor({ timeout: STEP });
      assert.match(
        (await asked.getByTestId('approval-from-view').textContent()) ?? '',
        /interactive view/i,
        'the card says the view asked, not the model',
      );
      assert.equal(
        await frame.evaluate(() => /\d+(\.\d+)?%/.test(document.body.innerText.split('MEMORY')[1] ?? '')),
        false,
        'no memory figure before the call is allowed',
      );
      await shot(p, 'approval-from-view');
      await asked.getByTestId('approve-chat').click();
      await frame.waitForFunction(
        () => /\d+(\.\d+)?%/.test(document.body.innerText.split('MEMORY')[1] ?? ''),
        undefined,
        {
          timeout: STEP,
        },
      );
      await shot(p, 'result-in-view');
      // Must-show 3: the app-only tool the view just called was never offered to the model.
      const offered = e2e.gemini!.generateRequests().flatMap((r) => declarationsOf(r).map((d) => d.name));
      assert.ok(offered.includes('sysmon__get-system-info'), `offered: ${[...new Set(offered)].join(', ')}`);
      assert.ok(
        !offered.some((n) => n.includes('poll-system-stats')),
        'poll-system-stats never reached the model',
      );
    });
  },
);

test(
  "a view's ui/message joins the conversation, labelled, and the model answers it",
  { timeout: 90_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p) return;
    await withEvidence(p, 'app-message', async () => {
      const { frame } = await viewThroughChat(p, 'basic', 'get-time');
      const words = `hello from the view ${randomBytes(3).toString('hex')}`;
      e2e.gemini!.enqueue(reply(text('The view said hello.')));
      await frame.locator('textarea').first().fill(words);
      await frame.getByRole('button', { name: 'Send Message' }).click();
      const message = p.getByTestId('message-user').filter({ hasText: words });
      await message.waitFor({ timeout: STEP });
      // The label says which view sent it (a person's own messages have none).
      const label = message.getByTestId('message-origin');
      await label.waitFor({ timeout: STEP });
      assert.match((await label.textContent()) ?? '', /get-time view from basic/);
      assert.equal(await message.getAttribute('data-origin'), 'app');
      await p
        .getByTestId('assistant-text')
        .filter({ hasText: 'The view said hello.' })
        .waitFor({ timeout: STEP });
      const last = userTurns(e2e.gemini!.generateRequests().at(-1)).at(-1) ?? '';
      assert.ok(last.includes(words), `the model received the view's words: ${last}`);
      await shot(p, 'message-from-view');
    });
  },
);

test(
  '"Show interactive views" off in Servers › Info shows results as text; on brings the view back',
  { timeout: 90_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p) return;
    await withEvidence(p, 'views-switch', async () => {
      const setViews = async (on: boolean) => {
        await p.getByTestId('nav-servers').click();
        await p.getByTestId('server-row-basic').click();
        const details = p.getByTestId('server-details-basic');
        await details.getByTestId('tab-info').click();
        const toggle = details.getByRole('switch', { name: 'Show interactive views' });
        await toggle.waitFor({ timeout: STEP });
        if ((await toggle.isChecked()) !== on) await toggle.click();
        await p
          .getByTestId('views-switch-basic')
          .and(p.locator(on ? ':checked' : ':not(:checked)'))
          .waitFor({ timeout: STEP });
      };
      const openTimeChat = async () => {
        await p.getByTestId('nav-chat').click();
        await p
          .locator('[data-testid^="conversation-item-"]')
          .filter({ hasText: 'get-time' })
          .first()
          .click();
        return p
          .locator('[data-testid="tool-card"]')
          .filter({ hasText: 'get-time' })
          .first()
          .getByTestId('app-view');
      };
      await setViews(false);
      const off = await openTimeChat();
      await off.and(p.locator('[data-state="fallback"]')).waitFor({ timeout: STEP });
      assert.match((await off.getByTestId('app-view-fallback').textContent()) ?? '', /switched off/i);
      await shot(p, 'views-off');
      await setViews(true);
      const on = await openTimeChat();
      await on.and(p.locator('[data-state="ready"]')).waitFor({ timeout: STEP });
    });
  },
);
