// A chat run in flight, end to end with real parts (real renderer in real Chromium, real browser
// mode, the real @google/genai client pointed at a fake Gemini, server-everything over stdio):
// Stop ends a run that is still streaming, and a reload while a call waits for approval loses
// nothing. The rest of the chat is in chat.test.ts. Screenshots land in
// test-results/e2e/chat-*.png.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { functionCall, hold, reply, text } from '../fixtures/fake-gemini.js';
import { pageOrSkip } from '../helpers/chromium.js';
import { chatSkipReason as skipReason, ECHO_FOR_MODEL, EVERYTHING_STDIO } from '../helpers/e2e-app.js';
import { useE2eSession } from '../helpers/e2e-session.js';

const STEP_TIMEOUT_MS = 30_000;

// A key only this run knows: the fake accepts nothing else.
const API_KEY = `e2e-${randomBytes(12).toString('hex')}`;

const e2e = useE2eSession({
  name: 'chat (in flight)',
  prefix: 'chat',
  skipReason,
  // Each test enqueues its own turns.
  gemini: { apiKey: API_KEY, script: [] },
  config: { mcpServers: { everything: EVERYTHING_STDIO } },
  viewport: { width: 1400, height: 900 },
  connect: ['everything'],
  ready: async (session) => {
    // The runs below need a key; the session removes it again at the end.
    await session.storeKey(session.page);
    await session.page.getByTestId('chat-view').waitFor();
  },
});
const { shot, withEvidence } = e2e;

test('chat: Stop ends a run that is still streaming', { timeout: 60_000 }, async (t) => {
  const p = pageOrSkip(t, skipReason, e2e.page);
  if (!p || !e2e.mode || !e2e.gemini) return;
  await withEvidence(p, 'stop', async () => {
    const before = e2e.gemini!.generateRequests().length;
    e2e.gemini!.enqueue(hold(text('Once upon a time')));
    await p.getByTestId('chat-input').fill('Tell me a very long story.');
    await p.getByTestId('chat-input').press('Enter');
    await p
      .getByTestId('assistant-text')
      .filter({ hasText: 'Once upon a time' })
      .waitFor({ timeout: STEP_TIMEOUT_MS });
    await p.getByTestId('chat-stop').click();
    await p.getByTestId('run-end').filter({ hasText: 'Stopped' }).waitFor({ timeout: STEP_TIMEOUT_MS });
    await p.getByTestId('chat-send').waitFor();
    const streaming = e2e.gemini!.generateRequests()[before];
    assert.ok(streaming, 'the model was asked');
    assert.equal(await streaming.closed, 'client-disconnected', 'Stop aborted the model stream');
    await shot(p, '10-stopped');
  });
});

test(
  'chat: a reload while a call waits for approval keeps the card, and the run finishes',
  { timeout: 60_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p || !e2e.mode || !e2e.gemini) return;
    await withEvidence(p, 'reload-mid-run', async () => {
      e2e.gemini!.enqueue(
        reply(functionCall(ECHO_FOR_MODEL, { message: 'after reload' })),
        reply(text('Done after the reload.')),
      );
      await p.getByTestId('chat-input').fill('Echo "after reload", please.');
      await p.getByTestId('chat-input').press('Enter');
      await p.getByTestId('approval-card').waitFor({ timeout: STEP_TIMEOUT_MS });
      await p.reload();
      // The page never saw this run start: the waiting approval still shows, and so does Stop.
      const card = p.getByTestId('approval-card');
      await card.waitFor({ timeout: STEP_TIMEOUT_MS });
      assert.deepEqual(JSON.parse((await card.getByTestId('approval-args').textContent()) ?? 'null'), {
        message: 'after reload',
      });
      await p.getByTestId('chat-stop').waitFor();
      await card.getByTestId('approve-once').click();
      await p
        .getByTestId('assistant-text')
        .filter({ hasText: 'Done after the reload.' })
        .waitFor({ timeout: STEP_TIMEOUT_MS });
      const tool = p
        .locator('[data-testid="tool-card"][data-status="done"]')
        .filter({ hasText: 'Echo: after reload' });
      await tool.waitFor();
      await p.getByTestId('chat-send').waitFor();
      await shot(p, '11-after-mid-run-reload');
    });
  },
);

test(
  'chat: a message sent right after New chat goes to the new chat while the host is still creating it',
  { timeout: 60_000 },
  async (t) => {
    const first = pageOrSkip(t, skipReason, e2e.page);
    if (!first || !e2e.session || !e2e.gemini) return;
    // A page of its own whose bridge holds back `chat.create` until the message has been sent:
    // a host slow enough that the person is quicker, however fast or slow this machine is.
    const p = await e2e.session.browser.newPage({ viewport: { width: 1400, height: 900 } });
    let release = (): void => undefined;
    const sent = new Promise<void>((resolve) => (release = resolve));
    try {
      await withEvidence(p, 'send-while-creating', async () => {
        let held = 0;
        await p.routeWebSocket(/./, (ws) => {
          const server = ws.connectToServer();
          ws.onMessage((message) => {
            if (typeof message === 'string' && message.includes('"channel":"chat.create"')) {
              held++;
              void sent.then(() => server.send(message));
            } else server.send(message);
          });
          server.onMessage((message) => ws.send(message));
        });
        await p.goto(e2e.mode!.url);
        await p.getByTestId('chat-view').waitFor({ timeout: STEP_TIMEOUT_MS });
        const items = p.locator('.conversation-item');
        // Another conversation open, as a person would have.
        await items.first().waitFor({ timeout: STEP_TIMEOUT_MS });
        await items.first().click();
        const countBefore = await items.count();

        e2e.gemini!.enqueue(reply(text('Answered in the new chat.')));
        const message = `Fresh start ${randomBytes(3).toString('hex')}`;
        await p.getByTestId('new-chat').click();
        await p.getByTestId('chat-input').fill(message);
        await p.getByTestId('chat-input').press('Enter');
        release();

        await p
          .getByTestId('assistant-text')
          .filter({ hasText: 'Answered in the new chat.' })
          .waitFor({ timeout: STEP_TIMEOUT_MS });
        assert.equal(held, 1, 'one conversation was created, and its creation was held back');
        await p.locator('.conversation-item.selected').filter({ hasText: message }).waitFor();
        assert.equal(await items.count(), countBefore + 1, 'New chat and the message made one conversation');
        assert.equal(
          await p.getByTestId('message-user').filter({ hasText: message }).count(),
          1,
          'the message shows in the open conversation',
        );
      });
    } finally {
      release();
      await p.close();
    }
  },
);

/** The one countdown format (renderer/lib/format.ts): "45 s", "9 min 07 s". */
const COUNTDOWN = /^expires in (\d{1,2} s|\d+ min \d{2} s)$/;

/** Every text on the page inside `selector` that reads as a countdown, trimmed. */
const countdownsIn = (p: Page, selector: string) =>
  p.locator(selector).evaluate((root) => {
    const found: string[] = [];
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const el = n as HTMLElement;
      const own = Array.from(el.childNodes)
        .filter((c) => c.nodeType === Node.TEXT_NODE)
        .map((c) => c.textContent ?? '')
        .join('');
      if (/expires in/.test(own)) found.push((el.textContent ?? '').replace(/\s+/g, ' ').trim());
    }
    return found;
  });

test(
  'chat: a call stopped or denied before approval says it did not run and shows no duration; its card has one countdown (issue 24)',
  { timeout: 90_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p || !e2e.mode || !e2e.gemini) return;
    await withEvidence(p, 'never-approved', async () => {
      await p.getByTestId('new-chat').click();
      e2e.gemini!.enqueue(reply(functionCall(ECHO_FOR_MODEL, { message: 'stopped first' })));
      await p.getByTestId('chat-input').fill('Echo "stopped first", please.');
      await p.getByTestId('chat-input').press('Enter');
      const card = p.getByTestId('approval-card');
      await card.waitFor({ timeout: STEP_TIMEOUT_MS });

      // One countdown, in one format, on the card in the chat and on its item in Requests.
      const inChat = await countdownsIn(p, '[data-testid="approval-card"]');
      assert.equal(inChat.length, 1, `one countdown on the card: ${JSON.stringify(inChat)}`);
      assert.match(inChat[0] ?? '', COUNTDOWN);
      await p.getByTestId('nav-requests').click();
      const item = p.locator('[data-testid="request-item"][data-kind="tool-approval"]');
      await item.getByTestId('approval-card').waitFor({ timeout: STEP_TIMEOUT_MS });
      const inRequests = await countdownsIn(p, '[data-testid="request-item"][data-kind="tool-approval"]');
      assert.equal(inRequests.length, 1, `one countdown per request: ${JSON.stringify(inRequests)}`);
      assert.match(inRequests[0] ?? '', COUNTDOWN);
      await shot(p, '12-one-countdown');
      await p.getByTestId('nav-chat').click();

      // Stop while it waits: it never ran, so it says so and has no duration.
      await card.waitFor({ timeout: STEP_TIMEOUT_MS });
      await p.getByTestId('chat-stop').click();
      await p.getByTestId('run-end').filter({ hasText: 'Stopped' }).waitFor({ timeout: STEP_TIMEOUT_MS });
      const stopped = p.locator('[data-testid="tool-card"][data-status="cancelled"]');
      await stopped.waitFor({ timeout: STEP_TIMEOUT_MS });
      const note = (await stopped.getByTestId('tool-card-cancelled').textContent()) ?? '';
      assert.match(note, /did not run/);
      assert.doesNotMatch(note, /before it finished/);
      assert.equal(
        await stopped.getByTestId('tool-card-time').count(),
        0,
        'a call never run has no duration',
      );
      await p.getByTestId('chat-send').waitFor();

      // Denied: not run, no duration either.
      e2e.gemini!.enqueue(
        reply(functionCall(ECHO_FOR_MODEL, { message: 'denied' })),
        reply(text('Understood, no echo.')),
      );
      await p.getByTestId('chat-input').fill('Echo "denied", please.');
      await p.getByTestId('chat-input').press('Enter');
      await card.getByTestId('deny').click();
      const denied = p.locator('[data-testid="tool-card"][data-status="denied"]');
      await denied.waitFor({ timeout: STEP_TIMEOUT_MS });
      assert.match((await denied.textContent()) ?? '', /Not run/);
      assert.equal(await denied.getByTestId('tool-card-time').count(), 0, 'a denied call has no duration');
      await p
        .getByTestId('assistant-text')
        .filter({ hasText: 'Understood, no echo.' })
        .waitFor({ timeout: STEP_TIMEOUT_MS });
      await shot(p, '13-never-approved');
    });
  },
);
