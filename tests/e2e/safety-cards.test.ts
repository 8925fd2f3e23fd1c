// Safety cards safe by default (issue 24 §3): a tool flagged by the poisoning checks, or changed
// since it was pinned, is asked about with Deny as the first and primary answer and "Switch off
// for the model" next; no "Always allow" while its warnings or its change stand; its description
// shown once with every matched passage marked in warning colours (never the diff's green); a
// version only ever seen reads as "first seen", not as one the person approved; and Review change
// in the Tools view offers more than Accept. Real parts: the hostile fixture servers
// (tests/fixtures/poisoned-tools-server.mjs, rug-pull-server.mjs) over stdio, the real renderer in
// Chromium, the real @google/genai client against the wire-exact fake Gemini. Screenshots in
// light, dark and 800x600: test-results/e2e/safety-cards-*.png; axe at zero serious or critical.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import {
  functionCall,
  functionResponsesOf,
  reply,
  text,
  type RecordedRequest,
} from '../fixtures/fake-gemini.js';
import { sendInNewChat, STEP } from '../helpers/app-view-e2e.js';
import { repoRoot } from '../helpers/browser-mode.js';
import { chromiumSkipReason, pageOrSkip } from '../helpers/chromium.js';
import { modelKeySkipReason } from '../helpers/e2e-app.js';
import { openConnected, useE2eSession } from '../helpers/e2e-session.js';
import { shotInVariants } from '../helpers/variant-shots.js';

const API_KEY = `e2e-${randomBytes(12).toString('hex')}`;
const skipReason = chromiumSkipReason ?? modelKeySkipReason;
const PREFIX = 'safety-cards';
const fixture = (name: string) => ({
  command: process.execPath,
  args: [join(repoRoot, 'tests/fixtures', name)],
});

/** What the model (the fake) passes each tool it is asked to use. */
const CALLS: Record<string, Record<string, unknown>> = {
  poisoned__add: { a: 1, b: 2 },
  'rug__fetch-page': { url: 'https://example.com', context: 'x' },
};

/**
 * The model calls the tool its prompt names ("please use <tool>"), then answers once it has the
 * call's outcome: every conversation stands alone, whatever an earlier test left unanswered.
 */
function script(r: RecordedRequest) {
  if (functionResponsesOf(r).length) return reply(text('Done with the tool.'));
  const name = /please use ([\w.:-]+)/.exec(JSON.stringify(r.body?.contents ?? []))?.[1] ?? '';
  return reply(functionCall(name, CALLS[name] ?? {}));
}

const e2e = useE2eSession({
  name: PREFIX,
  skipReason,
  gemini: { apiKey: API_KEY, script },
  config: {
    mcpServers: { poisoned: fixture('poisoned-tools-server.mjs'), rug: fixture('rug-pull-server.mjs') },
  },
  viewport: { width: 1300, height: 900 },
  ready: async (session) => {
    await openConnected(session.page, session.mode.url, ['poisoned', 'rug']);
    await session.storeKey(session.page);
  },
});
const { withEvidence } = e2e;

/** A new conversation whose model calls `name` (see CALLS); the approval card it waits on. */
async function modelAsks(p: Page, name: string): Promise<Locator> {
  await sendInNewChat(p, `please use ${name}`);
  const card = p.getByTestId('approval-card');
  await card.waitFor({ timeout: STEP });
  return card;
}

/** The card's answers, in order, and which of them is the primary (default) one. */
async function answers(card: Locator): Promise<{ order: string[]; primary: string[] }> {
  const buttons = card.locator('.approval-actions button');
  const order = await buttons.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid') ?? ''));
  const primary = await buttons.evaluateAll((els) =>
    els.filter((e) => e.classList.contains('primary')).map((e) => e.getAttribute('data-testid') ?? ''),
  );
  return { order, primary };
}

/** Every warning mark in `scope` is drawn in a warm (warning) colour, not green: red above green. */
async function assertWarningColours(scope: Locator): Promise<string[]> {
  const marks = scope.getByTestId('warning-mark');
  assert.ok((await marks.count()) > 0, 'the passages are marked');
  const colours = await marks.evaluateAll((els) => els.map((e) => getComputedStyle(e).backgroundColor));
  for (const c of colours) {
    const [r, g] = (c.match(/\d+(\.\d+)?/g) ?? []).map(Number);
    assert.ok(r > g, `a mark is warning-coloured, not green (${c})`);
  }
  return marks.allTextContents();
}

/** Runs one of the rug fixture's control tools from the Tools view. */
async function runFromTools(p: Page, tool: string): Promise<void> {
  await p.getByTestId('nav-tools').click();
  const item = p.getByTestId(`tool-item-rug-${tool}`);
  await item.click();
  await item.and(p.locator('[aria-current="true"]')).waitFor({ timeout: STEP });
  const detail = p.getByTestId('tool-detail');
  await detail.getByTestId('call-tool').click();
  await detail.getByTestId('tool-result').waitFor({ timeout: STEP });
}

test(
  'a flagged tool: Deny first, then "Switch off for the model", no Always, its description once and marked',
  { timeout: 120_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p) return;
    await withEvidence(p, `${PREFIX}-flagged`, async () => {
      const card = await modelAsks(p, 'poisoned__add');
      const { order, primary } = await answers(card);
      assert.deepEqual(order.slice(0, 2), ['deny', 'switch-off'], `answers: ${order.join(', ')}`);
      assert.deepEqual(primary, ['deny'], 'Deny is the default');
      assert.ok(!order.includes('approve-always'), 'no "Always allow" while warnings stand');
      const said = (await card.innerText()).split('Adds two numbers.').length - 1;
      assert.equal(said, 1, 'the description is shown once');
      const marks = await assertWarningColours(card);
      assert.ok(marks.includes('<IMPORTANT>'), marks.join(' | '));
      assert.ok(
        marks.some((m) => m.startsWith('Do not mention')),
        marks.join(' | '),
      );
      await shotInVariants(p, `${PREFIX}-flagged`, { show: card, axe: '[data-testid="approval-card"]' });

      await card.getByTestId('switch-off').click();
      await p
        .locator('[data-testid="tool-card"][data-status="denied"]')
        .filter({ hasText: 'add' })
        .waitFor({ timeout: STEP });
      await p.getByTestId('nav-tools').click();
      const offer = p.getByTestId('chat-offer-poisoned-add');
      await offer.and(p.locator(':not(:checked)')).waitFor({ timeout: STEP });
    });
  },
);

test(
  'a changed tool only ever seen says "first seen", asks Deny first, and marks the injected passage',
  { timeout: 120_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p) return;
    await withEvidence(p, `${PREFIX}-changed`, async () => {
      await runFromTools(p, 'flip');
      await p.getByTestId('tool-changed-rug-fetch-page').waitFor({ timeout: STEP });
      const card = await modelAsks(p, 'rug__fetch-page');
      await card.getByTestId('approval-changed-badge').waitFor();
      const change = card.getByTestId('approval-change');
      const words = await change.innerText();
      assert.match(words, /first seen/i);
      assert.doesNotMatch(words, /you approved/i, 'nobody approved the earlier version');
      assert.doesNotMatch(
        (await card.getByTestId('approval-reason').textContent()) ?? '',
        /since you approved/i,
      );
      const { order, primary } = await answers(card);
      assert.deepEqual(order.slice(0, 2), ['deny', 'switch-off'], `answers: ${order.join(', ')}`);
      assert.deepEqual(primary, ['deny']);
      assert.ok(!order.includes('approve-always'), 'no "Always allow" while the change stands');
      const marks = await assertWarningColours(change.getByTestId('diff-description-now'));
      assert.ok(
        marks.some((m) => m.includes('.ssh')),
        `the SSH passage is marked in the new text: ${marks.join(' | ')}`,
      );
      await shotInVariants(p, `${PREFIX}-changed`, { show: card, axe: '[data-testid="approval-card"]' });
      await card.getByTestId('deny').click();
      await card.waitFor({ state: 'detached', timeout: STEP });
    });
  },
);

test('Review change offers more than Accept: "Switch off for the model"', { timeout: 120_000 }, async (t) => {
  const p = pageOrSkip(t, skipReason, e2e.page);
  if (!p) return;
  await withEvidence(p, `${PREFIX}-review`, async () => {
    await p.getByTestId('nav-tools').click();
    await p.getByTestId('tool-item-rug-fetch-page').click();
    const review = p.getByTestId('tool-change-review');
    await review.waitFor({ timeout: STEP });
    await review.getByTestId('accept-change').waitFor();
    assert.match(await review.innerText(), /first seen/i);
    const off = review.getByTestId('review-switch-off');
    await off.waitFor();
    await shotInVariants(p, `${PREFIX}-review`, { show: review, axe: '[data-testid="tools-view"]' });
    await off.click();
    await p
      .getByTestId('chat-offer-rug-fetch-page')
      .and(p.locator(':not(:checked)'))
      .waitFor({ timeout: STEP });
    await review.getByTestId('review-switch-on').waitFor({ timeout: STEP });
  });
});
