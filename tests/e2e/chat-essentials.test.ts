// Chat essentials end to end (issue 12 item 8): Copy puts a message on the clipboard, Retry
// replaces an answer, Edit-and-resend changes what the model receives, search filters the
// list, the tools chip switches a server off for one chat (its tools leave the request), an
// approval wait is not counted in a tool's duration, and a failing model shows one error
// with its retries and a Retry. Real browser mode, real Chromium, server-everything, and the
// wire-exact fake Gemini, whose recorded requests are what the assertions read.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  declarationsOf,
  failure,
  functionCall,
  reply,
  text,
  type RecordedRequest,
} from '../fixtures/fake-gemini.js';
import { pageOrSkip } from '../helpers/chromium.js';
import { shotSet } from '../helpers/chat-e2e-checks.js';
import { assertAccessible } from '../helpers/axe.js';
import { chatSkipReason as skipReason, ECHO_FOR_MODEL, EVERYTHING_STDIO } from '../helpers/e2e-app.js';
import { openConnected, useE2eSession } from '../helpers/e2e-session.js';

const API_KEY = `e2e-${randomBytes(12).toString('hex')}`;
const STEP = 30_000;
const VIEWPORT = { width: 1300, height: 860 };
const e2e = useE2eSession({
  name: 'chat-essentials',
  skipReason,
  gemini: { apiKey: API_KEY, script: [] },
  config: { mcpServers: { everything: EVERYTHING_STDIO } },
  viewport: VIEWPORT,
  // axe needs a page of an explicit context (browser.newPage's own context cannot open its helper page).
  ownContext: true,
  ready: async (session) => {
    await session.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(session.mode.url).origin,
    });
    await openConnected(session.page, session.mode.url, ['everything']);
    await session.storeKey(session.page);
  },
});
const { shot, withEvidence } = e2e;

/** The texts of a request's contents, one string per turn. */
function turnsOf(request: RecordedRequest | undefined): string[] {
  return (request?.body?.contents ?? []).map((c) =>
    (c.parts ?? [])
      .map((part) => ('text' in part && typeof part.text === 'string' ? part.text : ''))
      .join(''),
  );
}

async function send(p: Page, message: string): Promise<void> {
  await p.getByTestId('chat-input').fill(message);
  await p.getByTestId('chat-input').press('Enter');
  await p.getByTestId('message-user').filter({ hasText: message }).waitFor({ timeout: STEP });
}

async function newChat(p: Page): Promise<void> {
  const before = await p.locator('[data-testid^="conversation-item-"]').count();
  await p.getByTestId('new-chat').click();
  await p.locator('[data-testid^="conversation-item-"]').nth(before).waitFor({ timeout: STEP });
}

/** What the page's clipboard holds. */
function readClipboard(p: Page): Promise<string> {
  type Nav = { navigator: { clipboard: { readText(): Promise<string> } } };
  return p.evaluate(() => (globalThis as unknown as Nav).navigator.clipboard.readText());
}

/** Whether the element with `testId` has the focus. */
async function focused(p: Page, testId: string): Promise<boolean> {
  return (await p.locator(`[data-testid="${testId}"]:focus`).count()) === 1;
}

const answer = (p: Page, t: string) => p.getByTestId('assistant-text').filter({ hasText: t });

test('copy, retry and edit-and-resend', { timeout: 120_000 }, async (t) => {
  const p = pageOrSkip(t, skipReason, e2e.page);
  if (!p || !e2e.gemini) return;
  await withEvidence(p, 'copy-retry-edit', async () => {
    e2e.gemini!.enqueue(reply(text('Answer one.')));
    await send(p, 'first question');
    await answer(p, 'Answer one.').waitFor({ timeout: STEP });
    await p.getByTestId('chat-send').waitFor({ timeout: STEP });

    await p.getByTestId('message-assistant').last().getByTestId('message-copy').click();
    assert.equal(await readClipboard(p), 'Answer one.');
    await p.getByTestId('message-user').locator('..').getByTestId('message-copy').click();
    assert.equal(await readClipboard(p), 'first question');

    // Retry on the answer: a new answer replaces it; the model saw only the user turn.
    e2e.gemini!.enqueue(reply(text('Answer two.')));
    await p.getByTestId('message-assistant').last().getByTestId('message-retry').click();
    await answer(p, 'Answer two.').waitFor({ timeout: STEP });
    await answer(p, 'Answer one.').waitFor({ state: 'detached', timeout: STEP });
    assert.deepEqual(turnsOf(e2e.gemini!.generateRequests().at(-1)), ['first question']);
    await p.getByTestId('chat-send').waitFor({ timeout: STEP });

    // Edit-and-resend: the text changes in place, the answer after it is replaced.
    e2e.gemini!.enqueue(reply(text('Answer to the edit.')));
    await p.getByTestId('message-user').locator('..').getByTestId('message-edit').click();
    const box = p.getByTestId('message-edit-input');
    assert.equal(await focused(p, 'message-edit-input'), true, 'the editor takes focus');
    await shot(p, '01-editing');
    await box.fill('edited question');
    await box.press('Enter');
    await answer(p, 'Answer to the edit.').waitFor({ timeout: STEP });
    assert.deepEqual(turnsOf(e2e.gemini!.generateRequests().at(-1)), ['edited question']);
    assert.equal(await p.getByTestId('message-user').count(), 1);
    assert.equal(await p.getByTestId('message-user').filter({ hasText: 'first question' }).count(), 0);
    await p.getByTestId('chat-send').waitFor({ timeout: STEP });

    // What is stored matches: after a reload the edited turn and its one answer are all there.
    await p.reload();
    await answer(p, 'Answer to the edit.').waitFor({ timeout: STEP });
    assert.equal(await p.getByTestId('message-user').filter({ hasText: 'edited question' }).count(), 1);
    assert.equal(await p.getByTestId('message-assistant').count(), 1);
    assert.equal(await answer(p, 'Answer two.').count(), 0);
  });
});

test('search filters the conversation list by title and by message text', { timeout: 90_000 }, async (t) => {
  const p = pageOrSkip(t, skipReason, e2e.page);
  if (!p || !e2e.gemini) return;
  await withEvidence(p, 'search', async () => {
    await newChat(p);
    e2e.gemini!.enqueue(reply(text('Zebras have stripes.')));
    await send(p, 'tell me about animals');
    await answer(p, 'Zebras').waitFor({ timeout: STEP });
    await p.getByTestId('chat-send').waitFor({ timeout: STEP });
    const items = p.locator('[data-testid^="conversation-item-"]');
    assert.equal(await items.count(), 2);

    const search = p.getByTestId('conversation-search');
    await search.fill('zebras');
    await p.getByTestId('conversation-snippet').waitFor({ timeout: STEP });
    assert.equal(await items.count(), 1, 'only the chat whose answer mentions zebras');
    assert.match((await items.first().textContent()) ?? '', /animals/);
    await shot(p, '02-search');
    await search.fill('edited question');
    await items.filter({ hasText: 'edited question' }).waitFor({ timeout: STEP });
    assert.equal(await items.count(), 1, 'a title match');
    await search.fill('nothing like this anywhere');
    await p.getByTestId('conversation-search-empty').filter({ hasText: 'No chats match' }).waitFor();
    assert.equal(await items.count(), 0);
    await search.press('Escape');
    assert.equal(await search.inputValue(), '');
    assert.equal(await items.count(), 2);
  });
});

test('the tools chip switches a server off for this chat only', { timeout: 90_000 }, async (t) => {
  const p = pageOrSkip(t, skipReason, e2e.page);
  if (!p || !e2e.gemini) return;
  await withEvidence(p, 'chip', async () => {
    await newChat(p);
    const chip = p.getByTestId('tools-chip');
    assert.match((await chip.textContent()) ?? '', /1 of 1 server · [1-9]\d* tools/);
    await chip.click();
    const popover = p.getByTestId('tools-popover');
    await popover.waitFor();
    await assertAccessible(p, 'the tools popover', '[data-testid="tools-popover"]');
    await shotSet(p, shot, '03-tools-popover');
    // The switch is the host's word: it flips once the host has stored the change.
    await popover.getByRole('switch', { name: 'everything' }).click();
    await chip.filter({ hasText: '0 of 1 server · 0 tools' }).waitFor({ timeout: STEP });
    await p.keyboard.press('Escape');
    await popover.waitFor({ state: 'detached' });
    assert.equal(await focused(p, 'tools-chip'), true, 'Escape returns to the chip');

    e2e.gemini!.enqueue(reply(text('No tools for me.')));
    await send(p, 'what tools do you have?');
    await answer(p, 'No tools for me.').waitFor({ timeout: STEP });
    await p.getByTestId('chat-send').waitFor({ timeout: STEP });
    const names = declarationsOf(e2e.gemini!.generateRequests().at(-1)!).map((d) => d.name);
    assert.deepEqual(
      names.filter((n) => n.startsWith('everything__')),
      [],
      'the switched-off server offers no tools in this chat',
    );

    // Another chat still follows the chat settings.
    await newChat(p);
    await chip.filter({ hasText: '1 of 1 server' }).waitFor({ timeout: STEP });
  });
});

test('an approval wait is not counted in the tool duration', { timeout: 90_000 }, async (t) => {
  const p = pageOrSkip(t, skipReason, e2e.page);
  if (!p || !e2e.gemini) return;
  await withEvidence(p, 'approval-wait', async () => {
    e2e.gemini!.enqueue(reply(functionCall(ECHO_FOR_MODEL, { message: 'patience' })), reply(text('Echoed.')));
    await send(p, 'echo patience');
    const card = p.getByTestId('approval-card');
    await card.waitFor({ timeout: STEP });
    const waitMs = 2500;
    await p.waitForTimeout(waitMs);
    await card.getByTestId('approve-once').click();
    const tool = p.locator('[data-testid="tool-card"][data-status="done"]');
    await tool.waitFor({ timeout: STEP });
    await answer(p, 'Echoed.').waitFor({ timeout: STEP });
    const ms = Number(/(\d+) ms/.exec((await tool.getByTestId('tool-card-time').textContent()) ?? '')?.[1]);
    const waited = Number(
      /waited (\d+) s/.exec((await tool.getByTestId('tool-card-wait').textContent()) ?? '')?.[1],
    );
    assert.ok(waited >= 2, `the wait is shown apart (waited ${waited} s)`);
    assert.ok(ms < waitMs, `the call's own duration (${ms} ms) leaves out the ${waitMs} ms wait`);
    await assertAccessible(p, 'a chat with a tool card', '[data-testid="chat-view"]');
    await shotSet(p, shot, '04-tool-card');
  });
});

test(
  'a failing model shows one error, its retries, and a Retry that recovers',
  { timeout: 90_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p || !e2e.gemini) return;
    await withEvidence(p, 'failed-run', async () => {
      await newChat(p);
      e2e.gemini!.enqueue(failure(500), failure(500), failure(500));
      await send(p, 'are you there?');
      await p.getByTestId('run-error').waitFor({ timeout: STEP });
      await p.getByTestId('run-retry').waitFor({ timeout: STEP });
      assert.equal(await p.getByTestId('run-error').count(), 1, 'one error');
      assert.equal(await p.getByTestId('chat-notice').count(), 0, 'no notice per attempt');
      const retries = p.getByTestId('retry-list');
      assert.match((await retries.textContent()) ?? '', /Tried 3 times/);
      assert.equal(await retries.getByTestId('retry-item').count(), 1, 'the same reason is listed once');
      assert.match((await retries.getByTestId('retry-item').textContent()) ?? '', /2 times/);
      await assertAccessible(p, 'a failed run', '[data-testid="chat-view"]');
      await shotSet(p, shot, '05-failed-run');

      e2e.gemini!.enqueue(reply(text('I am here now.')));
      await p.getByTestId('run-retry').click();
      await answer(p, 'I am here now.').waitFor({ timeout: STEP });
      await p.getByTestId('chat-send').waitFor({ timeout: STEP });
      assert.equal(await p.getByTestId('run-error').count(), 0, 'the failed answer was replaced');
      assert.deepEqual(turnsOf(e2e.gemini!.generateRequests().at(-1)), ['are you there?']);
    });
  },
);
