// A chat column that behaves like a chat app (issue 24 §2), end to end: one draft per
// conversation (typed text and "Use in chat" stay with the chat they were written in), the
// edit-and-resend editor's buttons readable in light and dark (our own contrast measure and axe's
// color-contrast rule), a header whose title truncates first while the model chip stays whole,
// and a model picker beside the tools chip whose choice reaches the model. Real browser mode,
// real Chromium, server-everything, the wire-exact fake Gemini (its recorded requests are what
// is asserted). A message typed while "New chat" is still being created moves to the new chat.
// Files and per-chat instructions: chat-files.test.ts.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { reply, text, type RecordedRequest } from '../fixtures/fake-gemini.js';
import { pageOrSkip } from '../helpers/chromium.js';
import { shotSet } from '../helpers/chat-e2e-checks.js';
import { assertContrast } from '../helpers/contrast.js';
import { chatSkipReason as skipReason, EVERYTHING_STDIO } from '../helpers/e2e-app.js';
import { openConnected, useE2eSession } from '../helpers/e2e-session.js';
import { answer, newChat, openChat, send } from '../helpers/chat-column-steps.js';

const API_KEY = `e2e-${randomBytes(12).toString('hex')}`;
const STEP = 30_000;
const e2e = useE2eSession({
  name: 'chat-column',
  skipReason,
  gemini: { apiKey: API_KEY, script: [] },
  config: { mcpServers: { everything: EVERYTHING_STDIO } },
  viewport: { width: 1300, height: 860 },
  ownContext: true,
  ready: async (session) => {
    await openConnected(session.page, session.mode.url, ['everything']);
    await session.storeKey(session.page);
  },
});
const { shot, withEvidence } = e2e;

function lastRequest(): RecordedRequest {
  const r = e2e.gemini!.generateRequests().at(-1);
  assert.ok(r?.body, 'the model was asked');
  return r;
}

/** How the header's title and model chip fit their boxes. */
interface HeaderFit {
  chipCut: boolean;
  chipText: string;
  titleCut: boolean;
  titleWidth: number;
}

test(
  'each conversation keeps its own draft, and "Use in chat" lands only in the open one',
  { timeout: 120_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p) return;
    await withEvidence(p, 'drafts', async () => {
      await p.getByTestId('nav-chat').click();
      const first = await newChat(p);
      const input = p.getByTestId('chat-input');
      await input.fill('half a thought for the first chat');
      const second = await newChat(p);
      assert.equal(
        await input.inputValue(),
        '',
        'a new chat starts with an empty box, not the last chat’s draft',
      );
      await input.fill('words for the second chat');
      await openChat(p, first);
      assert.equal(await input.inputValue(), 'half a thought for the first chat');
      await openChat(p, second);
      assert.equal(await input.inputValue(), 'words for the second chat');

      // A prompt used from the Prompts view joins the draft of the chat open now, only that one.
      await p.getByTestId('nav-prompts').click();
      await p.getByTestId('prompt-item-everything-simple-prompt').click();
      await p.getByTestId('get-prompt').click();
      await p.getByTestId('prompt-result').waitFor({ timeout: STEP });
      await p.getByTestId('prompt-use-in-chat').click();
      await p.getByTestId('chat-view').waitFor({ state: 'visible' });
      const withPrompt = await input.inputValue();
      assert.ok(withPrompt.startsWith('words for the second chat\n\n'), withPrompt);
      assert.ok(withPrompt.length > 'words for the second chat\n\n'.length, 'the prompt text was added');
      await openChat(p, first);
      assert.equal(
        await input.inputValue(),
        'half a thought for the first chat',
        'the other chat is untouched',
      );

      // Sending clears only the draft that was sent.
      e2e.gemini!.enqueue(reply(text('First chat answered.')));
      await input.press('Enter');
      await answer(p, 'First chat answered.').waitFor({ timeout: STEP });
      assert.equal(await input.inputValue(), '');
      await openChat(p, second);
      assert.equal(await input.inputValue(), withPrompt);
      await input.fill('');
    });
  },
);

test(
  'a message typed while "New chat" is still being created goes to the new chat',
  { timeout: 120_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p) return;
    await withEvidence(p, 'draft-while-creating', async () => {
      await p.getByTestId('nav-chat').click();
      const first = await newChat(p);
      const input = p.getByTestId('chat-input');
      await input.fill('kept in the first chat');
      // Hold the host's answer to chat.create (the page's own WebSocket frames, held in the page)
      // so the typing below certainly happens before the new conversation exists.
      await p.evaluate(() => {
        const w = window as unknown as { __held: (() => void)[] };
        w.__held = [];
        // Put back after one use and always called with its socket as `this`.
        // eslint-disable-next-line @typescript-eslint/unbound-method
        const send = WebSocket.prototype.send;
        WebSocket.prototype.send = function (this: WebSocket, data) {
          if (typeof data === 'string' && data.includes('"chat.create"')) {
            w.__held.push(() => send.call(this, data));
            WebSocket.prototype.send = send;
            return;
          }
          send.call(this, data);
        };
      });
      const count = await p.locator('[data-testid^="conversation-item-"]').count();
      await p.getByTestId('new-chat').click();
      await p.waitForFunction(() => (window as unknown as { __held: unknown[] }).__held.length === 1);
      assert.equal(await input.inputValue(), '', 'the box is the new chat’s, empty, at once');
      await input.fill('typed before the chat exists');
      await p.evaluate(() => (window as unknown as { __held: (() => void)[] }).__held[0]());
      await p.locator('[data-testid^="conversation-item-"]').nth(count).waitFor({ timeout: STEP });
      const second = await p.locator('.conversation-item.selected').getAttribute('data-testid');
      assert.ok(second && second !== first, 'the new chat is open');
      assert.equal(await input.inputValue(), 'typed before the chat exists', 'the text moved with it');

      e2e.gemini!.enqueue(reply(text('Answered in the new chat.')));
      await input.press('Enter');
      await answer(p, 'Answered in the new chat.').waitFor({ timeout: STEP });
      assert.equal(await input.inputValue(), '', 'sent, so cleared');
      await openChat(p, first);
      assert.equal(await input.inputValue(), 'kept in the first chat', 'the first chat’s draft is untouched');
      await input.fill('');
    });
  },
);

test('the edit-and-resend editor has real buttons in light and dark', { timeout: 120_000 }, async (t) => {
  const p = pageOrSkip(t, skipReason, e2e.page);
  if (!p) return;
  await withEvidence(p, 'edit-contrast', async () => {
    await newChat(p);
    e2e.gemini!.enqueue(reply(text('An answer to edit under.')));
    await send(p, 'a question to edit');
    await answer(p, 'An answer to edit under.').waitFor({ timeout: STEP });
    await p.getByTestId('chat-send').waitFor({ timeout: STEP });
    await p.getByTestId('message-user').locator('..').getByTestId('message-edit').click();
    const editor = p.getByTestId('message-editor');
    await editor.waitFor();
    for (const scheme of ['light', 'dark'] as const) {
      await p.emulateMedia({ colorScheme: scheme });
      // Our own measure: every text and control edge of the editor against what it is painted on.
      const report = await assertContrast(
        p,
        `the message editor (${scheme})`,
        '[data-testid="message-editor"]',
      );
      assert.ok(report.borders >= 2, `both buttons were measured (${report.borders})`);
      // And axe's color-contrast rule over the same part.
      const axe = await new AxeBuilder({ page: p })
        .setLegacyMode(true)
        .include('[data-testid="message-editor"]')
        .withRules(['color-contrast'])
        .analyze();
      assert.deepEqual(
        axe.violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`)),
        [],
        `axe color-contrast in the editor (${scheme})`,
      );
    }
    await shotSet(p, shot, '01-editor');
    await p.emulateMedia({ colorScheme: 'light' });
    await p.getByTestId('message-edit-cancel').click();
    await editor.waitFor({ state: 'detached' });
  });
});

test(
  'the header truncates the title first; the model chip stays whole; the picker beside the tools chip picks the model',
  { timeout: 120_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p) return;
    await withEvidence(p, 'header', async () => {
      await newChat(p);
      e2e.gemini!.enqueue(reply(text('Long titles get cut.')));
      await send(
        p,
        'A very long first message that becomes an equally long conversation title, far wider than any header',
      );
      await answer(p, 'Long titles get cut.').waitFor({ timeout: STEP });
      await p.getByTestId('chat-send').waitFor({ timeout: STEP });
      for (const size of [
        { width: 800, height: 600 },
        { width: 1000, height: 700 },
      ]) {
        await p.setViewportSize(size);
        for (const settingsOpen of [false, true]) {
          if (settingsOpen) {
            await p.getByTestId('settings-open').click();
            await p.getByTestId('settings-panel').waitFor();
          }
          // A string: the tests compile without DOM types.
          const m: HeaderFit = await p.evaluate<HeaderFit>(`(() => {
          const chip = document.querySelector('[data-testid="settings-open"]');
          const title = document.querySelector('[data-testid="conversation-title"]');
          return {
            chipCut: chip.scrollWidth > chip.clientWidth + 1,
            chipText: chip.textContent ?? '',
            titleCut: title.scrollWidth > title.clientWidth + 1,
            titleWidth: title.clientWidth,
          };
        })()`);
          const where = `${size.width}x${size.height}${settingsOpen ? ' with settings open' : ''}`;
          assert.equal(m.chipCut, false, `${where}: the model chip is not cut ("${m.chipText}")`);
          assert.match(m.chipText, /Gemini · \S+/, `${where}: the chip names provider and model`);
          assert.equal(m.titleCut, true, `${where}: the long title is what gives way`);
          assert.ok(m.titleWidth >= 80, `${where}: the title keeps some room (${m.titleWidth}px)`);
          if (settingsOpen) {
            await p.getByTestId('settings-close').click();
            await p.getByTestId('settings-panel').waitFor({ state: 'detached' });
          }
        }
        await shot(p, `03-header-${size.width}`);
      }
      await p.setViewportSize({ width: 1300, height: 860 });

      // The model picker sits in the composer's bar beside the tools chip.
      const picker = p.getByTestId('composer-model');
      await picker.waitFor();
      const [chipBox, pickerBox] = [
        await p.getByTestId('tools-chip').boundingBox(),
        await picker.boundingBox(),
      ];
      assert.ok(chipBox && pickerBox);
      assert.ok(
        Math.abs(chipBox.y + chipBox.height / 2 - (pickerBox.y + pickerBox.height / 2)) < 8 &&
          pickerBox.x > chipBox.x,
        'the picker is on the tools chip’s row, after it',
      );
      const options = await picker.locator('option').allTextContents();
      const current = await picker.inputValue();
      const other = options.find((o) => o !== current);
      assert.ok(other, `the provider lists more than one model (${options.join(', ')})`);
      await picker.selectOption(other);
      await p.getByTestId('settings-open').filter({ hasText: other }).waitFor({ timeout: STEP });
      e2e.gemini!.enqueue(reply(text('Answered by the picked model.')));
      await send(p, 'which model are you?');
      await answer(p, 'Answered by the picked model.').waitFor({ timeout: STEP });
      assert.match(lastRequest().path, new RegExp(`/models/${other.replace(/[.]/g, '\\.')}:`));
      await picker.selectOption(current);
      await p.getByTestId('settings-open').filter({ hasText: current }).waitFor({ timeout: STEP });
    });
  },
);
