// First run end to end (issue 12 item 3): from an empty data folder the empty chat shows a
// checklist (model key, a server, a folder, a first question) whose buttons go where each is
// done and whose items tick as they are; "No servers connected — add one" while none is; and
// a dismissal that survives a reload. Real browser mode and Chromium, server-everything added
// through the form, the wire-exact fake Gemini answering the first question.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { reply, text } from '../fixtures/fake-gemini.js';
import { pageOrSkip } from '../helpers/chromium.js';
import { shotSet } from '../helpers/chat-e2e-checks.js';
import { assertAccessible } from '../helpers/axe.js';
import { chatSkipReason as skipReason, EVERYTHING_SERVER } from '../helpers/e2e-app.js';
import { useE2eSession } from '../helpers/e2e-session.js';
import { tempDir } from '../helpers/temp-dir.js';

const API_KEY = `e2e-${randomBytes(12).toString('hex')}`;
const STEP = 30_000;
const VIEWPORT = { width: 1300, height: 860 };
const e2e = useE2eSession({
  name: 'first-run',
  skipReason,
  gemini: { apiKey: API_KEY, script: [] },
  config: { mcpServers: {} },
  viewport: VIEWPORT,
  // axe needs a page of an explicit context.
  ownContext: true,
});
const { shot, withEvidence } = e2e;

const step = (p: Page, id: string) => p.getByTestId(`first-run-${id}`);
const isDone = async (p: Page, id: string) => (await step(p, id).getAttribute('data-done')) === 'true';
const waitDone = (p: Page, id: string) =>
  p.locator(`[data-testid="first-run-${id}"][data-done="true"]`).waitFor({ timeout: STEP });
const focused = async (p: Page, testId: string) =>
  (await p.locator(`[data-testid="${testId}"]:focus`).count()) === 1;

test(
  'the checklist leads through key, server, folder and first question',
  { timeout: 150_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p || !e2e.session || !e2e.gemini) return;
    await withEvidence(p, 'flow', async () => {
      await p.goto(e2e.session!.mode.url);
      await p.getByTestId('first-run').waitFor({ timeout: STEP });
      for (const id of ['key', 'server', 'folder', 'question'])
        assert.equal(await isDone(p, id), false, `${id} is not done on a first run`);
      await p.getByTestId('no-servers').filter({ hasText: 'No servers connected — add one' }).waitFor();
      await assertAccessible(p, 'the empty chat with its checklist');
      await shotSet(p, shot, '01-checklist');

      // Key: the settings drawer opens with its key field focused; saving ticks the step.
      await p.getByTestId('first-run-go-key').click();
      await p.getByTestId('settings-panel').waitFor();
      await p.locator('[data-testid="api-key-input"]:focus').waitFor({ timeout: STEP });
      await p.getByTestId('api-key-status').filter({ hasNotText: 'Checking' }).waitFor();
      assert.equal(await p.getByTestId('api-key-status').getAttribute('data-set'), 'false');
      await p.getByTestId('api-key-input').fill(API_KEY);
      await p.getByTestId('api-key-save').click();
      e2e.session!.keyStored();
      await waitDone(p, 'key');
      await p.getByTestId('settings-close').click();

      // Server: the Servers view opens with its Add form; adding one ticks the step and ends the banner.
      await p.getByTestId('first-run-go-server').click();
      await p.getByTestId('server-form').waitFor({ timeout: STEP });
      await p.getByTestId('server-name').fill('everything');
      await p.getByTestId('server-transport').selectOption('stdio');
      await p.getByTestId('server-command').fill(process.execPath);
      await p.getByTestId('server-args').fill([EVERYTHING_SERVER, 'stdio'].join('\n'));
      await p.getByTestId('server-form-submit').click();
      await p
        .locator('[data-testid="server-state-everything"][data-state="connected"]')
        .waitFor({ timeout: 60_000 });
      await p.getByTestId('nav-chat').click();
      await waitDone(p, 'server');
      await p.getByTestId('no-servers').waitFor({ state: 'detached', timeout: STEP });

      // Folder: the Folders view; sharing one ticks the step.
      await p.getByTestId('first-run-go-folder').click();
      await p.getByTestId('roots-view').waitFor({ timeout: STEP });
      await p.getByTestId('root-path-input').fill(await tempDir(undefined, 'mcp-desk-first-run-'));
      await p.getByTestId('root-add').click();
      await p.getByTestId('root-row').first().waitFor({ timeout: STEP });
      await p.getByTestId('nav-chat').click();
      await waitDone(p, 'folder');
      assert.equal(await isDone(p, 'question'), false);
      await shot(p, '02-three-done');

      // Question: the composer takes the focus; once asked, every step is done and the list is gone.
      await p.getByTestId('first-run-go-question').click();
      await p.locator('[data-testid="chat-input"]:focus').waitFor({ timeout: STEP });
      assert.equal(await focused(p, 'chat-input'), true);
      e2e.gemini!.enqueue(reply(text('Hello! How can I help?')));
      await p.keyboard.type('hello');
      await p.keyboard.press('Enter');
      await p.getByTestId('assistant-text').filter({ hasText: 'How can I help' }).waitFor({ timeout: STEP });
      await p.getByTestId('chat-send').waitFor({ timeout: STEP });
      await p.getByTestId('new-chat').click();
      await p.locator('[data-testid^="conversation-item-"]').nth(1).waitFor({ timeout: STEP });
      assert.equal(await p.getByTestId('first-run').count(), 0, 'all done: no checklist');
      assert.equal(
        e2e.gemini!.generateRequests().at(-1)?.apiKey,
        API_KEY,
        'the key set from the checklist was used',
      );
    });
  },
);

test('a dismissed checklist stays hidden after a reload', { timeout: 90_000 }, async (t) => {
  const p = pageOrSkip(t, skipReason, e2e.page);
  if (!p || !e2e.session) return;
  await withEvidence(p, 'dismiss', async () => {
    // Unshare the folder: one step is open again, so the checklist is back in an empty chat.
    await p.getByTestId('nav-roots').click();
    await p.getByTestId('root-remove').first().click();
    await p.getByTestId('roots-empty').waitFor({ timeout: STEP });
    await p.getByTestId('nav-chat').click();
    await p.getByTestId('first-run').waitFor({ timeout: STEP });
    assert.equal(await isDone(p, 'folder'), false);
    await p.getByTestId('first-run-dismiss').click();
    await p.getByTestId('first-run').waitFor({ state: 'detached', timeout: STEP });
    await p.reload();
    await p.getByTestId('chat-view').waitFor();
    await p.getByTestId('composer').waitFor();
    await p.locator('[data-testid^="conversation-item-"]').nth(1).waitFor({ timeout: STEP });
    assert.equal(await p.getByTestId('first-run').count(), 0, 'the dismissal was kept');
  });
});
