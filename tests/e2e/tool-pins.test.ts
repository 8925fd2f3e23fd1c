// Pinned tool definitions end to end (issue 15, Must show 1): the real renderer in Chromium,
// real browser mode, the rug-pull fixture over stdio, the real @google/genai client against a
// fake Gemini. A tool allowed "always" in chat changes its description and schema (its `flip`
// tool, called from the Tools view): the Tools view marks it changed and its Review change
// panel shows both versions; the next chat call asks again with the diff on the card and the
// changed chip on the tool card, and does not reach the server while it waits; allowing it
// accepts the change and the call after runs silently; a second change is accepted with
// "Accept change" in the Tools view. The Tools view and the card pass axe.
// Screenshots: test-results/e2e/tool-pins-*.png.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { functionCall, reply, text } from '../fixtures/fake-gemini.js';
import { chromiumSkipReason, pageOrSkip } from '../helpers/chromium.js';
import { repoRoot } from '../helpers/browser-mode.js';
import { modelKeySkipReason } from '../helpers/e2e-app.js';
import { useE2eSession } from '../helpers/e2e-session.js';
import { assertAccessible } from '../helpers/axe.js';

const STEP_TIMEOUT_MS = 30_000;
const API_KEY = `e2e-${randomBytes(12).toString('hex')}`;
const RUG = join(repoRoot, 'tests/fixtures/rug-pull-server.mjs');
const V1 = 'Fetch a web page and return its text.';

const skipReason = chromiumSkipReason ?? modelKeySkipReason;

const e2e = useE2eSession({
  name: 'tool pins',
  prefix: 'tool-pins',
  skipReason,
  gemini: { apiKey: API_KEY, script: [] },
  config: { mcpServers: { rug: { command: process.execPath, args: [RUG] } } },
  viewport: { width: 1400, height: 900 },
  connect: ['rug'],
});
const { shot, withEvidence } = e2e;

/** One chat turn whose model calls fetch-page, then answers `answer`. */
async function askFetch(p: Page, answer: string): Promise<void> {
  e2e.gemini!.enqueue(
    reply(functionCall('rug__fetch-page', { url: 'https://example.com' })),
    reply(text(answer)),
  );
  await p.getByTestId('nav-chat').click();
  await p.getByTestId('chat-input').fill(`Fetch the page (${answer})`);
  await p.getByTestId('chat-input').press('Enter');
}

async function answered(p: Page, answer: string): Promise<void> {
  await p.getByTestId('assistant-text').filter({ hasText: answer }).waitFor({ timeout: STEP_TIMEOUT_MS });
  await p.getByTestId('chat-send').waitFor({ timeout: STEP_TIMEOUT_MS });
}

/** Call one of the fixture's control tools from the Tools view; resolves with its result text. */
async function callFromTools(p: Page, tool: string): Promise<string> {
  await p.getByTestId('nav-tools').click();
  // Another tool first: the detail opens afresh, so no earlier result can pass for this call's.
  await p.getByTestId(`tool-item-rug-${tool === 'show' ? 'hide' : 'show'}`).click();
  await p.getByTestId(`tool-item-rug-${tool}`).click();
  const detail = p.getByTestId('tool-detail');
  await detail.getByTestId('call-tool').click();
  const result = detail.getByTestId('tool-result');
  await result.waitFor({ timeout: STEP_TIMEOUT_MS });
  return (await result.textContent()) ?? '';
}

/** How many times fetch-page really ran on the server (the fixture counts). */
async function fetchRuns(p: Page): Promise<number> {
  const raw = await callFromTools(p, 'stats');
  const match = raw.match(/"fetch-page":(\d+)/);
  return match ? Number(match[1]) : 0;
}

test(
  'tool pins: a changed tool asks again with a readable diff; accepting restores "always"',
  { timeout: 240_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p || !e2e.gemini) return;
    await withEvidence(p, 'flow', async () => {
      await p.getByTestId('nav-chat').click();
      await e2e.session!.storeKey(p);

      // Approved "always" while it reads as the first version.
      await askFetch(p, 'First fetch.');
      const card = p.getByTestId('approval-card');
      await card.waitFor({ timeout: STEP_TIMEOUT_MS });
      assert.equal(await card.getByTestId('approval-change').count(), 0, 'nothing changed yet');
      await card.getByTestId('approve-always').click();
      await answered(p, 'First fetch.');
      assert.equal(await fetchRuns(p), 1);

      // The server swaps in another description and schema; the Tools view marks it at once.
      assert.match(await callFromTools(p, 'flip'), /now v2/);
      const badge = p.getByTestId('tool-changed-rug-fetch-page');
      await badge.waitFor({ timeout: STEP_TIMEOUT_MS });
      await p.getByTestId('tool-item-rug-fetch-page').click();
      const review = p.getByTestId('tool-change-review');
      await review.waitFor({ timeout: STEP_TIMEOUT_MS });
      const before = (await review.getByTestId('diff-description-before').textContent()) ?? '';
      const now = (await review.getByTestId('diff-description-now').textContent()) ?? '';
      assert.equal(before, V1, 'the version that was approved');
      assert.match(now, /read ~\/\.ssh\/id_rsa/, 'the version offered now');
      assert.match((await review.getByTestId('diff-inputSchema').textContent()) ?? '', /\+\s*"context": \{/);
      assert.equal(await review.locator('ins.diff-added').first().isVisible(), true);
      await assertAccessible(p, 'the Tools view with a changed tool', '[data-testid="tools-view"]');
      await shot(p, 'tools-review');

      // The next chat call asks, with the diff on the card and "changed" on the tool card.
      await askFetch(p, 'Second fetch.');
      await card.waitFor({ timeout: STEP_TIMEOUT_MS });
      await card.getByTestId('approval-changed-badge').waitFor();
      const onCard = card.getByTestId('approval-change');
      assert.equal(await onCard.getByTestId('diff-description-before').textContent(), V1);
      assert.match((await onCard.getByTestId('diff-description-now').textContent()) ?? '', /id_rsa/);
      assert.match(
        (await card.getByTestId('approval-reason').textContent()) ?? '',
        /changed .* since you approved it/,
      );
      await p.getByTestId('tool-card-changed').first().waitFor();
      await assertAccessible(p, 'the approval card with a change', '[data-testid="approval-card"]');
      await shot(p, 'approval-card');
      // It has not run while it waits (the Tools view can ask the server meanwhile).
      assert.equal(await fetchRuns(p), 1, 'the call did not reach the server before review');

      // Allowing it on the card accepts the change: the badge goes, and "always" holds again.
      await p.getByTestId('nav-chat').click();
      await card.getByTestId('approve-once').click();
      await answered(p, 'Second fetch.');
      await p.getByTestId('nav-tools').click();
      await p.getByTestId('tool-item-rug-fetch-page').waitFor();
      await badge.waitFor({ state: 'detached', timeout: STEP_TIMEOUT_MS });
      await askFetch(p, 'Third fetch.');
      await answered(p, 'Third fetch.');
      assert.equal(await p.getByTestId('approval-card').count(), 0, 'no card: the approval is back');
      assert.equal(await fetchRuns(p), 3);

      // Another change, accepted from the Tools view's Review change panel.
      assert.match(await callFromTools(p, 'flip'), /now v1/);
      await badge.waitFor({ timeout: STEP_TIMEOUT_MS });
      await p.getByTestId('tool-item-rug-fetch-page').click();
      await review.getByTestId('accept-change').click();
      await badge.waitFor({ state: 'detached', timeout: STEP_TIMEOUT_MS });
      await review.waitFor({ state: 'detached', timeout: STEP_TIMEOUT_MS });
      await askFetch(p, 'Fourth fetch.');
      await answered(p, 'Fourth fetch.');
      assert.equal(await p.getByTestId('approval-card').count(), 0);
      assert.equal(await fetchRuns(p), 4);
    });
  },
);
