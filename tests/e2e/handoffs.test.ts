// Hand-offs between views (issue 12 item 11), end to end with real parts: the real renderer in
// real Chromium, real browser mode, server-everything over stdio, and the wire-exact fake Gemini.
// "Use in chat" on a fetched prompt fills the composer and what is sent reaches the model;
// "Attach to chat" on a resource attaches it and the model receives its contents; a Markdown
// resource is rendered (with its source a click away); tool results have Copy and Raw, in the
// Tools view and in the chat's tool card. Screenshots: test-results/e2e/handoffs-*.png.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { type Locator, type Page } from 'playwright-core';
import {
  functionCall,
  functionResponsesOf,
  partsOf,
  reply,
  text,
  type FakeGemini,
  type RecordedRequest,
} from '../fixtures/fake-gemini.js';
import { pageOrSkip } from '../helpers/chromium.js';
import { chatSkipReason as skipReason, EVERYTHING_STDIO, openEverythingTool } from '../helpers/e2e-app.js';
import { assertAccessible } from '../helpers/axe.js';
import { useE2eSession } from '../helpers/e2e-session.js';

const STEP_TIMEOUT_MS = 30_000;
const VIEWPORT = { width: 1400, height: 900 };
const API_KEY = `e2e-${randomBytes(12).toString('hex')}`;
const MARKDOWN_URI = 'demo://resource/static/document/architecture.md';
const PROMPT_TEXT = "What's weather in Lisbon?";
const STRUCTURED_TOOL = 'everything__get-structured-content';
const CHICAGO = { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 };

const e2e = useE2eSession({
  name: 'handoffs',
  skipReason,
  gemini: {
    apiKey: API_KEY,
    // Keyed on what was asked, not on order, so one failing test does not shift the others' turns.
    script: (request) => {
      if (functionResponsesOf(request).length > 0) return reply(text('It drizzles in Chicago.'));
      const asked = lastUserText(request);
      if (asked.includes('Lisbon')) return reply(text('Lisbon is sunny.'));
      if (asked.includes('Summarise')) return reply(text('The architecture document describes the server.'));
      return reply(functionCall(STRUCTURED_TOOL, { location: 'Chicago' }));
    },
  },
  config: { mcpServers: { everything: EVERYTHING_STDIO } },
  viewport: VIEWPORT,
  connect: ['everything'],
  ready: (session) =>
    session.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(session.mode.url).origin,
    }),
});
const { shot, withEvidence } = e2e;

/** Light, dark and 800x600 screenshots of what is on screen now, `subject` scrolled into view. */
async function shotThemes(p: Page, name: string, subject: Locator): Promise<void> {
  await p.emulateMedia({ colorScheme: 'light' });
  await shot(p, `${name}-light`);
  await p.emulateMedia({ colorScheme: 'dark' });
  await shot(p, `${name}-dark`);
  await p.emulateMedia({ colorScheme: 'light' });
  await p.setViewportSize({ width: 800, height: 600 });
  // The views scroll inside themselves, so a full-page shot would miss a subject below the fold.
  await subject.scrollIntoViewIfNeeded();
  await shot(p, `${name}-800x600`);
  await p.setViewportSize(VIEWPORT);
}

/** The user-role text of a request's last user turn. */
function lastUserText(request: RecordedRequest): string {
  const turns = (request.body?.contents ?? []).filter((c) => c.role === 'user');
  const last = turns[turns.length - 1];
  return (last?.parts ?? []).flatMap((part) => (typeof part.text === 'string' ? [part.text] : [])).join('\n');
}

/** The user text of the generate request whose last user turn contains `marker`. */
function sentWith(g: FakeGemini, marker: string): string {
  const request = g.generateRequests().find((r) => lastUserText(r).includes(marker));
  assert.ok(request, `the model received a request containing ${JSON.stringify(marker)}`);
  return partsOf(request)
    .filter(({ role, part }) => role === 'user' && typeof part.text === 'string')
    .map(({ part }) => String(part.text))
    .join('\n');
}

// Strings, not functions: the tests' tsconfig has no DOM types, and these run in the page.
const clipboard = (p: Page) => p.evaluate<string>('navigator.clipboard.readText()');
const composerFocused = (p: Page) =>
  p.waitForFunction('document.activeElement?.getAttribute("data-testid") === "chat-input"');

test(
  'handoffs: Use in chat fills the composer and the prompt reaches the model',
  { timeout: 120_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p || !e2e.gemini) return;
    await withEvidence(p, 'prompt', async () => {
      await e2e.session!.storeKey(p);
      await p.getByTestId('nav-prompts').click();
      await p.getByTestId('prompt-item-everything-args-prompt').click();
      await p.getByTestId('prompt-arg-city').fill('Lisbon');
      await p.getByTestId('get-prompt').click();
      await p.getByTestId('prompt-result').waitFor({ timeout: STEP_TIMEOUT_MS });
      await assertAccessible(p, '[data-testid="prompt-detail"]', '[data-testid="prompt-detail"]');
      await shotThemes(p, 'prompt-detail', p.getByTestId('prompt-use-in-chat'));

      await p.getByTestId('prompt-use-in-chat').click();
      // The app is on Chat, the message box holds the prompt's text and has the focus.
      await p.getByTestId('chat-view').waitFor({ state: 'visible' });
      assert.equal(await p.getByTestId('prompts-view').isVisible(), false, 'the Prompts view is left');
      assert.equal(await p.getByTestId('chat-input').inputValue(), PROMPT_TEXT);
      await composerFocused(p);
      await shot(p, 'prompt-in-composer');

      // Typing goes on where the text ends; Enter sends exactly that.
      await p.keyboard.type(' Please.');
      await p.keyboard.press('Enter');
      await p
        .getByTestId('assistant-text')
        .filter({ hasText: 'Lisbon is sunny.' })
        .waitFor({ timeout: STEP_TIMEOUT_MS });
      assert.match(sentWith(e2e.gemini!, 'Lisbon'), /What's weather in Lisbon\? Please\./);
    });
  },
);

test(
  'handoffs: a Markdown resource is rendered, and Attach to chat sends its contents',
  { timeout: 120_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p || !e2e.gemini) return;
    await withEvidence(p, 'resource', async () => {
      await p.getByTestId('nav-resources').click();
      await p.getByTestId('resource-item-everything-architecture.md').click();
      const detail = p.getByTestId('resource-detail');
      const md = detail.getByTestId('resource-markdown');
      await md.waitFor({ timeout: STEP_TIMEOUT_MS });
      // Rendered: the document's `# ...` line is a real heading element, not text.
      const heading = md.getByTestId('markdown-rendered-view').locator('h1, h2').first();
      await heading.waitFor({ timeout: STEP_TIMEOUT_MS });
      assert.match((await heading.textContent()) ?? '', /Everything Server/);
      assert.equal(await md.getByTestId('markdown-rendered').getAttribute('aria-pressed'), 'true');
      await assertAccessible(p, '[data-testid="resource-detail"]', '[data-testid="resource-detail"]');
      await shotThemes(p, 'resource-markdown', md);

      // Source: the exact text, hashes and all, and no heading element any more.
      await md.getByTestId('markdown-source').click();
      assert.equal(await md.getAttribute('data-mode'), 'source');
      assert.match(
        (await md.getByTestId('markdown-source-text').textContent()) ?? '',
        /^# Everything Server/,
      );
      assert.equal(await md.locator('h1, h2').count(), 0);
      await shot(p, 'resource-source');

      await detail.getByTestId('resource-attach-to-chat').click();
      await p.getByTestId('chat-view').waitFor({ state: 'visible' });
      const chip = p.getByTestId('attachment-chip');
      assert.equal(await chip.count(), 1);
      assert.match((await chip.textContent()) ?? '', /architecture\.md/);
      assert.equal(await chip.getAttribute('title'), `everything: ${MARKDOWN_URI}`);
      await composerFocused(p);
      await shot(p, 'attachment-chip');

      await p.keyboard.type('Summarise the attached document.');
      await p.keyboard.press('Enter');
      await p
        .getByTestId('assistant-text')
        .filter({ hasText: 'The architecture document' })
        .waitFor({ timeout: STEP_TIMEOUT_MS });
      const sent = sentWith(e2e.gemini!, 'Summarise');
      assert.ok(sent.includes(MARKDOWN_URI), 'the model is told which resource is attached');
      assert.match(sent, /# Everything Server – Architecture/, "the model receives the resource's contents");
      assert.equal(await p.getByTestId('attachment-chip').count(), 0, 'the chip is gone once sent');
    });
  },
);

test('handoffs: a tool result has Copy and Raw in the Tools view', { timeout: 120_000 }, async (t) => {
  const p = pageOrSkip(t, skipReason, e2e.page);
  if (!p) return;
  await withEvidence(p, 'tool-result', async () => {
    assert.ok(
      await openEverythingTool(p, 'get-structured-content'),
      'server-everything offers get-structured-content',
    );
    await p.getByTestId('field-location').selectOption('Chicago');
    await p.getByTestId('call-tool').click();
    const result = p.locator('[data-testid="tool-result"][data-status="ok"]');
    await result.waitFor({ timeout: STEP_TIMEOUT_MS });

    // Copy: the text a person reads.
    await result.getByTestId('result-copy').click();
    await result.getByTestId('result-copy').filter({ hasText: 'Copied' }).waitFor();
    assert.deepEqual(JSON.parse(await clipboard(p)), CHICAGO);

    // Raw: the exact JSON result, structured content included; Copy then copies that JSON.
    await result.getByTestId('result-raw').click();
    assert.equal(await result.getByTestId('result-raw').getAttribute('aria-pressed'), 'true');
    const raw = JSON.parse((await result.getByTestId('result-raw-json').textContent()) ?? 'null') as {
      content: { type: string; text: string }[];
      structuredContent: unknown;
    };
    assert.deepEqual(raw.structuredContent, CHICAGO);
    assert.deepEqual(JSON.parse(raw.content[0].text), CHICAGO);
    assert.equal(await result.getByTestId('content-text').count(), 0, 'Raw replaces the rendered blocks');
    await assertAccessible(p, '[data-testid="tool-result"]', '[data-testid="tool-result"]');
    await shotThemes(p, 'tool-result-raw', result);
    await result.getByTestId('result-copy').click();
    await p.waitForFunction('navigator.clipboard.readText().then((s) => s.includes("structuredContent"))');
    assert.deepEqual(JSON.parse(await clipboard(p)), raw);
  });
});

test('handoffs: the chat tool card has Copy and Raw too', { timeout: 120_000 }, async (t) => {
  const p = pageOrSkip(t, skipReason, e2e.page);
  if (!p || !e2e.gemini) return;
  await withEvidence(p, 'tool-card', async () => {
    await p.getByTestId('nav-chat').click();
    await p.getByTestId('chat-input').fill('How is the weather in Chicago?');
    await p.getByTestId('chat-input').press('Enter');
    const approval = p.getByTestId('approval-card');
    await approval.waitFor({ timeout: STEP_TIMEOUT_MS });
    await approval.getByTestId('approve-once').click();
    await p
      .getByTestId('assistant-text')
      .filter({ hasText: 'It drizzles' })
      .waitFor({ timeout: STEP_TIMEOUT_MS });

    const card = p.locator('[data-testid="tool-card"][data-status="done"]').getByTestId('tool-card-result');
    await card.getByTestId('result-copy').click();
    await card.getByTestId('result-copy').filter({ hasText: 'Copied' }).waitFor();
    assert.deepEqual(JSON.parse(await clipboard(p)), CHICAGO);
    await card.getByTestId('result-raw').click();
    const raw = JSON.parse((await card.getByTestId('result-raw-json').textContent()) ?? 'null') as {
      structuredContent: unknown;
    };
    assert.deepEqual(raw.structuredContent, CHICAGO);
    // The result part of the card is this feature's; the card's head belongs to the thread.
    await assertAccessible(p, '[data-testid="tool-card-result"]', '[data-testid="tool-card-result"]');
    await shotThemes(p, 'tool-card-raw', card);
  });
});
