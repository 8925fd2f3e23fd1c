// The chat, end to end with real parts: the real renderer in real Chromium, real browser
// mode, the real @google/genai client pointed at a fake Gemini that speaks the wire format,
// and server-everything over stdio. The model streams text, asks for `echo`, a person
// approves it in the UI, the tool runs, the model answers; after a reload it is all still
// there. Stopping a run and reloading mid-run are in chat-in-flight.test.ts. Screenshots of
// every step land in test-results/e2e/chat-*.png.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { functionCall, partsOf, reply, splitText, text, thought } from '../fixtures/fake-gemini.js';
import { pageOrSkip } from '../helpers/chromium.js';
import {
  chatSkipReason as skipReason,
  ECHO_FOR_MODEL,
  EVERYTHING_STDIO,
  readDownload,
  saveKeyInSettings,
} from '../helpers/e2e-app.js';
import { useE2eSession } from '../helpers/e2e-session.js';
import { HOSTILE_MARKDOWN } from '../fixtures/hostile-markdown.js';

const CONNECT_TIMEOUT_MS = 60_000;
const STEP_TIMEOUT_MS = 30_000;

// A key only this run knows: the fake accepts nothing else, so a pass proves the key the
// person typed into the UI is the one the host sent.
const API_KEY = `e2e-${randomBytes(12).toString('hex')}`;
const PROMPT = 'Please echo "hi" with the echo tool.';
const FIRST_TEXT = 'Let me echo that.';
const FINAL_TEXT = 'The echo said: Echo: hi';

// Stopping the session leaves no key behind in the keychain, whatever happened in the tests.
const e2e = useE2eSession({
  name: 'chat',
  skipReason,
  gemini: {
    apiKey: API_KEY,
    script: [
      {
        ...reply(...splitText(FIRST_TEXT, 3), functionCall(ECHO_FOR_MODEL, { message: 'hi' })),
        chunkDelayMs: 60,
      },
      { ...reply(...splitText(FINAL_TEXT, 4)), chunkDelayMs: 60 },
    ],
  },
  config: { mcpServers: { everything: EVERYTHING_STDIO } },
  viewport: { width: 1400, height: 900 },
});
const { shot, withEvidence } = e2e;

test('chat: streamed text, an approved tool call and the answer', { timeout: 180_000 }, async (t) => {
  const p = pageOrSkip(t, skipReason, e2e.page);
  if (!p || !e2e.mode || !e2e.gemini) return;
  await withEvidence(p, 'flow', async () => {
    await p.goto(e2e.mode!.url);
    // Chat is the first view; wait until server-everything is connected so echo is offered.
    await p.getByTestId('chat-view').waitFor();
    await p.getByTestId('nav-servers').click();
    await p
      .locator('[data-testid="server-state-everything"][data-state="connected"]')
      .waitFor({ timeout: CONNECT_TIMEOUT_MS });
    await p.getByTestId('nav-chat').click();
    await shot(p, '01-empty');

    // The key goes in through the write-only field and is never shown again.
    await saveKeyInSettings(
      p,
      API_KEY,
      () => e2e.session?.keyStored(),
      async () => {
        assert.equal(
          await p.getByTestId('api-key-input').inputValue(),
          '',
          'the key is cleared from the field once stored',
        );
        assert.equal(await p.getByTestId('api-key-input').getAttribute('type'), 'password');
        assert.ok(!(await p.content()).includes(API_KEY), 'the key appears nowhere in the page');
        await shot(p, '02-key-set');
      },
    );

    await p.getByTestId('chat-input').fill(PROMPT);
    await p.getByTestId('chat-input').press('Enter');
    await p.getByTestId('message-user').filter({ hasText: PROMPT }).waitFor({ timeout: STEP_TIMEOUT_MS });
    await p
      .getByTestId('assistant-text')
      .filter({ hasText: FIRST_TEXT })
      .waitFor({ timeout: STEP_TIMEOUT_MS });

    // The model asked for echo: the run waits on the person, showing exactly what will be sent.
    const card = p.getByTestId('approval-card');
    await card.waitFor({ timeout: STEP_TIMEOUT_MS });
    assert.match((await card.textContent()) ?? '', /echo/);
    assert.deepEqual(JSON.parse((await card.getByTestId('approval-args').textContent()) ?? 'null'), {
      message: 'hi',
    });
    await p.locator('[data-testid="tool-card"][data-status="awaiting-approval"]').waitFor();
    assert.equal(
      (await p.getByTestId('nav-chat-badge').textContent())?.trim(),
      '1',
      'the nav shows one request waiting',
    );
    assert.equal(
      await p.getByTestId('chat-stop').isVisible(),
      true,
      'Stop is offered while the run is going',
    );
    await shot(p, '03-approval');

    await card.getByTestId('approve-once').click();
    await card.waitFor({ state: 'detached', timeout: STEP_TIMEOUT_MS });
    const tool = p.locator('[data-testid="tool-card"][data-status="done"]');
    await tool.waitFor({ timeout: STEP_TIMEOUT_MS });
    assert.equal(
      (await tool.getByTestId('tool-card-result').getByTestId('content-text').textContent())?.trim(),
      'Echo: hi',
    );
    await p
      .getByTestId('assistant-text')
      .filter({ hasText: FINAL_TEXT })
      .waitFor({ timeout: STEP_TIMEOUT_MS });
    await p.getByTestId('chat-send').waitFor({ timeout: STEP_TIMEOUT_MS });
    assert.equal(await p.getByTestId('nav-chat-badge').count(), 0, 'nothing waits any more');
    assert.equal(await p.getByTestId('run-error').count(), 0, 'the run did not fail');
    await shot(p, '04-answered');

    // What went to the model: our key, and the tool's result as the function response.
    const generates = e2e.gemini!.generateRequests();
    assert.equal(generates.length, 2, 'two model turns: the call, then the answer');
    assert.ok(generates.every((r) => r.apiKey === API_KEY));
    const responses = partsOf(generates[1]).filter(({ part }) => 'functionResponse' in part);
    assert.equal(responses.length, 1, 'the second turn carries the echo result');
    assert.match(JSON.stringify(responses[0].part), /Echo: hi/);
  });
});

test(
  'chat: after a reload the conversation and its tool card are still there',
  { timeout: 90_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p || !e2e.mode) return;
    await withEvidence(p, 'reload', async () => {
      await p.reload();
      await p.getByTestId('chat-view').waitFor();
      await p.getByTestId('message-user').filter({ hasText: PROMPT }).waitFor({ timeout: STEP_TIMEOUT_MS });
      const tool = p.locator('[data-testid="tool-card"][data-status="done"]');
      await tool.waitFor();
      assert.equal(
        (await tool.getByTestId('tool-card-result').getByTestId('content-text').textContent())?.trim(),
        'Echo: hi',
      );
      await p.getByTestId('assistant-text').filter({ hasText: FINAL_TEXT }).waitFor();
      await p.getByTestId('assistant-text').filter({ hasText: FIRST_TEXT }).waitFor();
      assert.equal(
        await p.locator('[data-testid^="conversation-item-"]').count(),
        1,
        'one conversation in the list',
      );
      assert.equal(await p.getByTestId('approval-card').count(), 0);
      await shot(p, '05-after-reload');

      // Export (a menu in the header) hands the file to the browser as a download (a Blob URL), in both formats.
      await p.getByTestId('export-menu').click();
      const [markdown] = await Promise.all([
        p.waitForEvent('download'),
        p.getByTestId('export-markdown').click(),
      ]);
      assert.match(markdown.suggestedFilename(), /\.md$/);
      const md = await readDownload(markdown);
      assert.ok(md.includes(PROMPT) && md.includes(FINAL_TEXT), 'the Markdown export holds the conversation');
      await p.getByTestId('export-menu').click();
      const [json] = await Promise.all([p.waitForEvent('download'), p.getByTestId('export-json').click()]);
      const exported = JSON.parse(await readDownload(json)) as { messages?: unknown[] };
      assert.ok(
        Array.isArray(exported.messages) && exported.messages.length >= 3,
        'the JSON export holds the messages',
      );
    });
  },
);

test(
  'chat: a / prompt, an attached resource, thinking, sanitised Markdown and a denied call',
  { timeout: 120_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p || !e2e.mode || !e2e.gemini) return;
    await withEvidence(p, 'prompt-attach-deny', async () => {
      const before = e2e.gemini!.generateRequests().length;
      e2e.gemini!.enqueue(
        {
          ...reply(
            thought('The person wants the weather; I should check with echo.'),
            ...splitText(HOSTILE_MARKDOWN, 4),
            functionCall(ECHO_FOR_MODEL, { message: 'deny me' }),
          ),
          chunkDelayMs: 40,
        },
        reply(text('Understood, I will not echo.')),
      );
      await p.getByTestId('new-chat').click();
      await p.locator('[data-testid^="conversation-item-"]').nth(1).waitFor();
      await p.getByTestId('message-user').waitFor({ state: 'detached' });

      // `/` opens every server's prompts; the chosen one's arguments are asked for, then its text is inserted.
      await p.getByTestId('chat-input').fill('/args');
      await p.getByTestId('prompt-menu').waitFor();
      await shot(p, '06-prompt-menu');
      await p.getByTestId('prompt-option-everything:args-prompt').click();
      await p.getByTestId('chat-prompt-arg-city').fill('Paris');
      await p.getByTestId('prompt-insert-submit').click();
      await p.getByTestId('prompt-insert').waitFor({ state: 'detached' });
      const inserted = await p.getByTestId('chat-input').inputValue();
      assert.match(inserted, /Paris/, 'the expanded prompt is in the composer');

      await p.getByTestId('attach-resource').click();
      await p
        .locator(
          '[data-testid="resource-option"][data-uri="demo://resource/static/document/architecture.md"]',
        )
        .click();
      await p.getByTestId('resource-picker-close').click();
      assert.match((await p.getByTestId('attachment-chip').textContent()) ?? '', /architecture\.md/);
      await shot(p, '07-prompt-and-attachment');
      await p.getByTestId('chat-send').click();

      const user = p.getByTestId('message-user').filter({ hasText: 'Paris' });
      await user.waitFor({ timeout: STEP_TIMEOUT_MS });
      assert.match((await user.getByTestId('message-attachment').textContent()) ?? '', /architecture\.md/);
      const card = p.getByTestId('approval-card');
      await card.waitFor({ timeout: STEP_TIMEOUT_MS });

      // Thinking is there, folded away.
      const thinking = p.getByTestId('thinking');
      assert.equal(await thinking.getAttribute('open'), null, 'thinking starts collapsed');
      await thinking.locator('summary').click();
      assert.match((await thinking.textContent()) ?? '', /check with echo/);

      // The Markdown: a real table and highlighted code, nothing from the raw HTML, no script run.
      const answer = p.getByTestId('assistant-text').filter({ hasText: 'Here is the weather' });
      assert.equal(await answer.locator('table td', { hasText: 'Paris' }).count(), 1);
      assert.equal(await answer.locator('img, script').count(), 0, 'raw HTML is not rendered');
      assert.ok(
        (await answer.getByTestId('code-block').locator('.hljs-keyword').count()) > 0,
        'code is highlighted',
      );
      assert.equal(
        await p.evaluate(() => (globalThis as { __pwned?: number }).__pwned),
        undefined,
        'no model-supplied script ran',
      );
      assert.equal(
        await answer.locator('a', { hasText: 'click me' }).count(),
        0,
        'a javascript: link is not a link',
      );
      const docs = answer.locator('a', { hasText: 'the docs' });
      assert.equal(await docs.getAttribute('href'), 'https://example.com/docs');
      assert.equal(await docs.getAttribute('rel'), 'noopener noreferrer');
      await shot(p, '08-markdown-and-approval');

      await card.getByTestId('deny').click();
      await p
        .locator('[data-testid="tool-card"][data-status="denied"]')
        .waitFor({ timeout: STEP_TIMEOUT_MS });
      await p
        .getByTestId('assistant-text')
        .filter({ hasText: 'Understood, I will not echo.' })
        .waitFor({ timeout: STEP_TIMEOUT_MS });
      await p.getByTestId('chat-send').waitFor();
      await shot(p, '09-denied');

      // The model saw the prompt text and the resource, and was told the call was denied.
      const [first, second] = e2e.gemini!.generateRequests().slice(before);
      assert.ok(first && second, 'two model turns for this message');
      const sent = JSON.stringify(partsOf(first));
      assert.match(sent, /Paris/);
      assert.match(sent, /architecture/i, 'the attached resource went to the model');
      const denial = partsOf(second).filter(({ part }) => 'functionResponse' in part);
      assert.equal(denial.length, 1);
      assert.doesNotMatch(JSON.stringify(denial[0].part), /Echo: deny me/, 'the denied tool never ran');
    });
  },
);
