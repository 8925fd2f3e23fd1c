// Issue 12 item 1 and Must-show 4, end to end with real parts (the real renderer in real
// Chromium, real browser mode, server-everything over stdio, the real @google/genai client
// pointed at a fake Gemini): a server's sampling review or form shows where its tool call is —
// inside the chat's tool card and in the Tools view's result area — and answering there answers
// it everywhere. Stop (chat) and Cancel (Tools) settle everything the call caused: nothing stays
// pending, the Requests view lists it as cancelled, and the server received the refusal (its
// protocol trace shows our answer). Item 11: Requests and Activity rows link to their chat.
// Screenshots (light, dark, 800x600) land in test-results/e2e/requests-inline-*.png.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { type Page } from 'playwright-core';
import {
  functionCall,
  functionResponsesOf,
  reply,
  text,
  type RecordedRequest,
} from '../fixtures/fake-gemini.js';
import { chromiumSkipReason, pageOrSkip } from '../helpers/chromium.js';
import {
  everythingSkipReason,
  EVERYTHING_STDIO,
  modelKeySkipReason as noKeychain,
  openEverythingTool as openTool,
} from '../helpers/e2e-app.js';
import { assertAccessible } from '../helpers/axe.js';
import { eventually } from '../helpers/wait.js';
import { useE2eSession } from '../helpers/e2e-session.js';

const STEP_TIMEOUT_MS = 30_000;
const VIEWPORT = { width: 1400, height: 1000 };
const API_KEY = `e2e-${randomBytes(12).toString('hex')}`;
const REFUSAL = 'User rejected sampling request';
const ELICIT_CANCEL = '"action":"cancel"';

const skipReason = chromiumSkipReason ?? everythingSkipReason;

/** The model calls the tool its prompt names once, then answers; Stop ends the run before that. */
function script(r: RecordedRequest) {
  if (functionResponsesOf(r).length) return reply(text('done'));
  const asked = JSON.stringify(r.body?.contents ?? []);
  if (asked.includes('ELICIT')) return reply(functionCall('everything__trigger-elicitation-request', {}));
  return reply(functionCall('everything__trigger-sampling-request', { prompt: 'hello', maxTokens: 20 }));
}

const e2e = useE2eSession({
  name: 'requests-inline',
  skipReason,
  gemini: { apiKey: API_KEY, script },
  config: { mcpServers: { everything: EVERYTHING_STDIO } },
  viewport: VIEWPORT,
  connect: ['everything'],
});
const { shot, withEvidence } = e2e;

/** Screenshots in light, dark and at 800x600, and no serious/critical axe finding inside `scope`. */
async function evidence(p: Page, name: string, scope: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await p.emulateMedia({ colorScheme });
    await shot(p, `${name}-${colorScheme}`);
    await assertAccessible(p, `${name} (${colorScheme})`, scope);
  }
  await p.emulateMedia({ colorScheme: 'light' });
  await p.setViewportSize({ width: 800, height: 600 });
  await shot(p, `${name}-800x600`);
  await p.setViewportSize(VIEWPORT);
}

/** How many of our answers to the server carry `needle`, as the Servers view's trace shows them. */
async function answersOnWire(p: Page, needle: string): Promise<number> {
  await p.getByTestId('nav-servers').click();
  await p.getByTestId('server-row-everything').click();
  await p.getByTestId('tab-trace').click();
  await p.getByTestId('trace-filter').fill(needle);
  const count = await p.locator('[data-testid="trace-entry"].trace-out').count();
  await p.getByTestId('trace-filter').fill('');
  return count;
}

/** Waits until the trace holds more than `before` of our answers carrying `needle`. */
async function waitForAnswer(p: Page, needle: string, before: number): Promise<number> {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  for (;;) {
    const now = await answersOnWire(p, needle);
    if (now > before) return now;
    assert.ok(Date.now() < deadline, `the server never received an answer carrying ${needle}`);
    await p.waitForTimeout(250);
  }
}

/** Nothing waits: no badge, and the Requests view's queue is empty. */
async function assertNothingPending(p: Page): Promise<void> {
  await p.getByTestId('nav-requests').click();
  await p.getByText('Nothing is waiting for you.').waitFor({ timeout: STEP_TIMEOUT_MS });
  assert.equal(await p.getByTestId('request-item').count(), 0, 'nothing is left waiting');
  await eventually(
    'no badge on Requests',
    async () => (await p.getByTestId('nav-requests-badge').count()) === 0,
  );
}

test('tools view: a form shows in the result area, is answered there, and is gone from Requests', async (t) => {
  const p = pageOrSkip(t, skipReason, e2e.page);
  if (!p) return;
  await withEvidence(p, 'tools-answer', async () => {
    assert.ok(await openTool(p, 'trigger-elicitation-request'));
    await p.getByTestId('call-tool').click();
    const detail = p.getByTestId('tool-detail');
    const card = detail.locator('[data-testid="elicitation-card"][data-mode="form"]');
    await card.waitFor({ timeout: STEP_TIMEOUT_MS });
    assert.equal((await detail.getByTestId('call-tool').textContent())?.trim(), 'Waiting for you…');
    await evidence(p, '01-tools-form', '[data-testid="tool-detail"]');

    // The same request is in the queue, named by its call.
    await p.getByTestId('nav-requests').click();
    const item = p.locator('[data-testid="request-item"][data-kind="elicitation"]');
    await item.waitFor({ timeout: STEP_TIMEOUT_MS });
    assert.match(
      (await item.getByTestId('request-origin').textContent()) ?? '',
      /trigger-elicitation-request ran in the Tools view/,
    );
    await evidence(p, '02-requests-origin', '[data-testid="requests-view"]');

    // Answered where the call is: gone from both places, and the server got the answer.
    await p.getByTestId('nav-tools').click();
    await card.getByTestId('elicit-decline').click();
    await detail.getByTestId('tool-result').waitFor({ timeout: STEP_TIMEOUT_MS });
    assert.match((await detail.getByTestId('tool-result').textContent()) ?? '', /decline/i);
    await eventually(
      'no request left in the result area',
      async () => (await detail.getByTestId('inline-requests').count()) === 0,
    );
    await assertNothingPending(p);
  });
});

for (const kind of ['sampling', 'elicitation'] as const) {
  test(`tools view: Cancel settles the ${kind} its call caused`, async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p) return;
    await withEvidence(p, `tools-cancel-${kind}`, async () => {
      const needle = kind === 'sampling' ? REFUSAL : ELICIT_CANCEL;
      const before = await answersOnWire(p, needle);
      assert.ok(
        await openTool(p, `trigger-${kind}-request`),
        `server-everything offers trigger-${kind}-request`,
      );
      if (kind === 'sampling') await p.getByTestId('field-prompt').fill('hello');
      await p.getByTestId('call-tool').click();
      const detail = p.getByTestId('tool-detail');
      const inline = detail.getByTestId('inline-request');
      await inline.getByTestId(`${kind}-card`).waitFor({ timeout: STEP_TIMEOUT_MS });
      const requestId = await inline.getAttribute('data-request-id');
      if (kind === 'sampling') await evidence(p, '03-tools-sampling', '[data-testid="tool-detail"]');
      await detail.getByTestId('cancel-tool').click();
      await detail.getByTestId('tool-result').waitFor({ timeout: STEP_TIMEOUT_MS });
      await eventually(
        'no request left in the result area',
        async () => (await detail.getByTestId('inline-requests').count()) === 0,
      );

      await assertNothingPending(p);
      const settled = p.locator(
        `[data-testid="settled-item"][data-request-id="${requestId}"][data-outcome="cancelled"]`,
      );
      await settled.waitFor({ timeout: STEP_TIMEOUT_MS });
      assert.match((await settled.textContent()) ?? '', /was stopped/);
      if (kind === 'elicitation') await evidence(p, '04-requests-settled', '[data-testid="requests-view"]');
      await waitForAnswer(p, needle, before);
    });
  });
}

for (const kind of ['sampling', 'elicitation'] as const) {
  test(`chat: the ${kind} shows in the tool card; Stop settles it (Must-show 4)`, async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p || !e2e.gemini || !e2e.session) return;
    if (noKeychain) return t.skip(noKeychain);
    await withEvidence(p, `chat-stop-${kind}`, async () => {
      const needle = kind === 'sampling' ? REFUSAL : ELICIT_CANCEL;
      const before = await answersOnWire(p, needle);
      await e2e.session!.storeKey(p);
      await p.getByTestId('nav-chat').click();
      // Typed once the new chat exists: each chat keeps its own draft (issue 24).
      const chats = p.locator('[data-testid^="conversation-item-"]');
      const chatCount = await chats.count();
      await p.getByTestId('new-chat').click();
      await chats.nth(chatCount).waitFor({ timeout: STEP_TIMEOUT_MS });
      const title = `${kind === 'sampling' ? 'SAMPLE' : 'ELICIT'} ${randomBytes(3).toString('hex')}`;
      await p.getByTestId('chat-input').fill(title);
      await p.getByTestId('chat-input').press('Enter');
      const chat = p.getByTestId('chat-view');
      await chat.getByTestId('approve-once').click({ timeout: STEP_TIMEOUT_MS });

      const toolCard = chat.locator('[data-testid="tool-card"][data-waiting="true"]');
      await toolCard.getByTestId(`${kind}-card`).waitFor({ timeout: STEP_TIMEOUT_MS });
      assert.equal((await toolCard.getByTestId('tool-card-status').textContent())?.trim(), 'waiting for you');
      await eventually(
        'the Chat nav item to say the chat waits for you',
        async () => (await p.getByTestId('nav-chat-badge').textContent())?.trim() === '1',
      );
      assert.equal(
        await p.getByTestId('nav-requests-badge').count(),
        0,
        'the one waiting request is counted in Chat only, not on Requests as well',
      );
      const callId = await toolCard.getAttribute('data-call-id');
      const requestId = await toolCard.getByTestId('inline-request').getAttribute('data-request-id');
      await evidence(p, `05-chat-${kind}`, '[data-testid="chat-thread"]');

      await chat.getByTestId('chat-stop').click();
      await chat.getByTestId('run-end').filter({ hasText: 'Stopped' }).waitFor({ timeout: STEP_TIMEOUT_MS });
      const stopped = chat.locator(`[data-testid="tool-card"][data-call-id="${callId}"]`);
      await eventually(
        'the stopped call to be cancelled with no request left in its card',
        async () =>
          (await stopped.getAttribute('data-status')) === 'cancelled' &&
          (await stopped.getByTestId('inline-requests').count()) === 0,
      );

      await assertNothingPending(p);
      const settled = p.locator(
        `[data-testid="settled-item"][data-request-id="${requestId}"][data-outcome="cancelled"]`,
      );
      await settled.waitFor({ timeout: STEP_TIMEOUT_MS });
      assert.match((await settled.textContent()) ?? '', /was stopped/);
      // The server received the refusal (sampling: the spec's "user rejected" error; a form: cancel).
      await waitForAnswer(p, needle, before);

      // Item 11: the settled row and the Activity row lead back to the conversation.
      await p.getByTestId('nav-requests').click();
      await settled.getByTestId('open-conversation').click();
      await chat.waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
      await chat.locator('.conversation-item.selected').filter({ hasText: title }).waitFor();
      await p.getByTestId('new-chat').click();
      await p.getByTestId('nav-audit').click();
      const row = p
        .locator('[data-testid="audit-row"]')
        .filter({ hasText: 'cancelled' })
        .filter({ has: p.getByTestId('open-conversation') })
        .first();
      await row.waitFor({ timeout: STEP_TIMEOUT_MS });
      if (kind === 'elicitation') await evidence(p, '06-activity-link', '[data-testid="audit-view"]');
      await row.getByTestId('open-conversation').click();
      await chat.locator('.conversation-item.selected').filter({ hasText: title }).waitFor();
    });
  });
}
