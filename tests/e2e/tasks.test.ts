// A tool call that the server runs as a task (the 2026-07-28 tasks extension fixture), end to
// end: the chat's tool card shows the running task (status, the server's message, Cancel),
// a window reload finds it again from tasks.list, and the result lands on the card; another
// run is cancelled from the card. Real renderer in Chromium, browser mode, the real
// @google/genai client against the wire-exact fake Gemini. Screenshots: test-results/e2e/tasks-*.png.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { test } from 'node:test';
import { type Page } from 'playwright-core';
import { functionCall, reply, text } from '../fixtures/fake-gemini.js';
import { assertAccessible } from '../helpers/axe.js';
import { chromiumSkipReason, pageOrSkip } from '../helpers/chromium.js';
import { modelKeySkipReason } from '../helpers/e2e-app.js';
import { useE2eSession } from '../helpers/e2e-session.js';
import { REPO_ROOT } from '../helpers/server-processes.js';

const STEP_TIMEOUT_MS = 30_000;
const API_KEY = `e2e-${randomBytes(12).toString('hex')}`;
const SLOW_TASK = 'tasks__slow-task';

const skipReason = chromiumSkipReason ?? modelKeySkipReason;

const e2e = useE2eSession({
  name: 'tasks',
  skipReason,
  gemini: { apiKey: API_KEY, script: [] },
  config: {
    mcpServers: {
      tasks: { command: process.execPath, args: [join(REPO_ROOT, 'tests/fixtures/task-server-2026.mjs')] },
    },
  },
  viewport: { width: 1400, height: 900 },
  connect: ['tasks'],
  ready: async (session) => {
    // Tasks are a 2026-07-28 extension. On a loaded machine the era probe may time out and the
    // server connect in 2025 first; its late answer then reconnects it in 2026-07-28 (the
    // connection does so while nothing was sent on it). Wait for that, not for a time.
    await session.page.locator('[data-testid="server-era-tasks"].era-modern').waitFor({ timeout: 45_000 });
    await session.storeKey(session.page);
    await session.page.getByTestId('nav-chat').click();
    await session.page.getByTestId('chat-view').waitFor();
  },
});
const { shot, withEvidence } = e2e;

/** Ask for the slow task and approve the call; returns the card. */
async function startTask(p: Page, args: Record<string, unknown>, prompt: string) {
  await p.getByTestId('chat-input').fill(prompt);
  await p.getByTestId('chat-input').press('Enter');
  await p.getByTestId('approval-card').getByTestId('approve-once').click({ timeout: STEP_TIMEOUT_MS });
  const card = p.locator('[data-testid="tool-card"]').filter({ hasText: 'slow-task' }).last();
  await card
    .locator('[data-testid="task-line"][data-task-status="working"]')
    .waitFor({ timeout: STEP_TIMEOUT_MS });
  assert.ok(args);
  return card;
}

test(
  'a task-based call shows a running task, survives a reload, then shows its result',
  { timeout: 90_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p || !e2e.gemini) return;
    await withEvidence(p, 'reload', async () => {
      // Long enough to outlast the reload on a slow machine; short enough for the suite.
      const args = { ms: 15_000, steps: 3 };
      e2e.gemini!.enqueue(reply(functionCall(SLOW_TASK, args)), reply(text('The task is finished.')));
      const card = await startTask(p, args, 'Run the slow task, please.');
      await card
        .getByTestId('task-message')
        .filter({ hasText: /step \d of 3/ })
        .waitFor({ timeout: STEP_TIMEOUT_MS });
      await shot(p, '01-running');
      await p.reload();
      // The new page never saw the task start (the stored conversation gets the call when the run
      // ends): it finds the task through tasks.list and shows it, with its Cancel, until then.
      const again = p.getByTestId('task-card').filter({ hasText: 'slow-task' });
      await again
        .locator('[data-testid="task-line"][data-task-status="working"]')
        .waitFor({ timeout: STEP_TIMEOUT_MS });
      await again.getByTestId('task-cancel').waitFor();
      await assertAccessible(p, 'the running task on the tool card', '[data-testid="task-line"]');
      await shot(p, '02-after-reload');
      await p
        .locator('[data-testid="tool-card"][data-status="done"]')
        .filter({ hasText: 'slept 15000 ms in 3 steps' })
        .waitFor({ timeout: STEP_TIMEOUT_MS });
      const doneCard = p
        .locator('[data-testid="tool-card"]')
        .filter({ hasText: 'slept 15000 ms in 3 steps' });
      await doneCard.locator('[data-testid="task-line"][data-task-status="completed"]').waitFor();
      assert.equal(await p.getByTestId('task-card').count(), 0, 'the stand-in is gone once the card is back');
      await p
        .getByTestId('assistant-text')
        .filter({ hasText: 'The task is finished.' })
        .waitFor({ timeout: STEP_TIMEOUT_MS });
      await shot(p, '03-done');
    });
  },
);

test('Cancel task on the card cancels the server task', { timeout: 90_000 }, async (t) => {
  const p = pageOrSkip(t, skipReason, e2e.page);
  if (!p || !e2e.gemini) return;
  await withEvidence(p, 'cancel', async () => {
    const args = { ms: 60_000, steps: 6 };
    e2e.gemini!.enqueue(reply(functionCall(SLOW_TASK, args)), reply(text('Understood, it was cancelled.')));
    const card = await startTask(p, args, 'Run the long task.');
    await card.getByTestId('task-cancel').click();
    await card
      .locator('[data-testid="task-line"][data-task-status="cancelled"]')
      .waitFor({ timeout: STEP_TIMEOUT_MS });
    // The call ended without the result: the card no longer runs, and the run goes on.
    await p
      .locator('[data-testid="tool-card"]:not([data-status="running"])')
      .filter({ has: p.locator('[data-task-status="cancelled"]') })
      .waitFor({ timeout: STEP_TIMEOUT_MS });
    await p
      .getByTestId('assistant-text')
      .filter({ hasText: 'Understood, it was cancelled.' })
      .waitFor({ timeout: STEP_TIMEOUT_MS });
    await shot(p, '04-cancelled');
  });
});
