// Issue 12 item 7, with the keyboard alone where it matters: a completion list is a combobox
// (arrows move, Enter picks the highlighted option, Escape closes) and the server receives the
// picked value; choosing a `/` prompt in the chat composer moves focus to its first argument;
// an elicitation form that fails validation focuses its first invalid field.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { pageOrSkip, withEvidence } from '../helpers/chromium.js';
import { openConnected } from '../helpers/e2e-session.js';
import { openEverythingTool } from '../helpers/e2e-app.js';
import { everythingPage } from '../helpers/everything-page.js';

const setup = everythingPage('keyboard a11y e2e');
const STEP_TIMEOUT_MS = 30_000;

/** The data-testid of whatever has focus ('' when nothing with one does). */
function focusedTestId(p: Page): Promise<string> {
  return p.evaluate<string>(`document.activeElement?.getAttribute('data-testid') ?? ''`);
}

/** Types `prefix` into the focused combobox, then picks its first suggestion with ArrowDown+Enter. */
async function pickFirst(p: Page, field: string, prefix: string, expected: string): Promise<void> {
  const input = p.getByTestId(field);
  await p.keyboard.type(prefix);
  const list = p.getByTestId(`${field}-suggestions`);
  await list.getByRole('option', { name: expected }).waitFor({ timeout: STEP_TIMEOUT_MS });
  assert.equal(await input.getAttribute('role'), 'combobox');
  assert.equal(await input.getAttribute('aria-expanded'), 'true');
  assert.equal(
    await input.getAttribute('aria-activedescendant'),
    null,
    'nothing highlighted before an arrow',
  );
  await p.keyboard.press('ArrowDown');
  const first = list.getByRole('option').first();
  // The highlight is React's next render after the key: wait for it rather than read at once.
  await list.locator('[role="option"][aria-selected="true"]').first().waitFor({ timeout: STEP_TIMEOUT_MS });
  assert.equal(await first.getAttribute('aria-selected'), 'true');
  assert.equal(await input.getAttribute('aria-activedescendant'), await first.getAttribute('id'));
  await p.keyboard.press('Enter');
  await list.waitFor({ state: 'detached' });
  assert.equal(await input.inputValue(), expected, 'Enter picked the highlighted option, not the typed text');
}

test(
  'keyboard: completion is a combobox, a chosen prompt takes focus, an invalid form focuses its field',
  {
    timeout: 180_000,
  },
  async (t) => {
    const p = pageOrSkip(t, setup.skipReason, setup.page());
    const mode = setup.mode();
    if (!p || !mode) return;
    await withEvidence(
      p,
      'keyboard-a11y',
      async () => {
        await openConnected(p, mode.url, ['everything']);

        // Prompts view: server-everything's completable prompt narrows names by department.
        await p.getByTestId('nav-prompts').click();
        await p.getByTestId('prompt-item-everything-completable-prompt').click();
        await p.getByTestId('prompt-arg-department').focus();
        await pickFirst(p, 'prompt-arg-department', 'E', 'Engineering');
        await p.keyboard.press('Tab');
        assert.equal(await focusedTestId(p), 'prompt-arg-name');
        // Escape closes the list and keeps the typed text.
        await p.keyboard.type('B');
        await p.getByTestId('prompt-arg-name-suggestions').waitFor({ timeout: STEP_TIMEOUT_MS });
        await p.keyboard.press('Escape');
        await p.getByTestId('prompt-arg-name-suggestions').waitFor({ state: 'detached' });
        assert.equal(await p.getByTestId('prompt-arg-name').inputValue(), 'B');
        await p.keyboard.press('Backspace');
        await pickFirst(p, 'prompt-arg-name', 'A', 'Alice');
        // With the list closed, Enter submits the form: the server expands what was picked.
        await p.keyboard.press('Enter');
        const result = p.getByTestId('prompt-result');
        await result.filter({ hasText: 'promote Alice' }).waitFor({ timeout: STEP_TIMEOUT_MS });
        assert.match(
          (await result.textContent()) ?? '',
          /Please promote Alice to the head of the Engineering team/,
        );

        // Chat: choosing a `/` prompt moves focus into its form; Escape returns to the composer.
        await p.getByTestId('nav-chat').click();
        await p.getByTestId('chat-input').focus();
        await p.keyboard.type('/completable');
        await p.getByTestId('prompt-menu').waitFor();
        await p.keyboard.press('Enter');
        await p.getByTestId('prompt-insert').waitFor();
        assert.equal(await focusedTestId(p), 'chat-prompt-arg-department', 'focus is on the first argument');
        // The focused empty argument asks the server for every department: the first Escape
        // closes that list only (the form stays), the second closes the form. Waiting for the
        // list, not a time: it arrives after a debounce and a round trip.
        const departments = p.getByTestId('chat-prompt-arg-department-suggestions');
        await departments.waitFor({ timeout: STEP_TIMEOUT_MS });
        await p.keyboard.press('Escape');
        await departments.waitFor({ state: 'detached' });
        assert.equal(await p.getByTestId('prompt-insert').isVisible(), true, 'the form stays open');
        await p.keyboard.press('Escape');
        await p.getByTestId('prompt-insert').waitFor({ state: 'detached' });
        assert.equal(await focusedTestId(p), 'chat-input', 'Escape hands focus back to the composer');

        // Elicitation: Accept on an incomplete form lands on the first field to fix.
        assert.ok(
          await openEverythingTool(p, 'trigger-elicitation-request'),
          'the elicitation tool is offered',
        );
        await p.getByTestId('call-tool').click();
        await p.getByTestId('nav-requests-badge').waitFor({ timeout: STEP_TIMEOUT_MS });
        await p.getByTestId('nav-requests').click();
        const card = p.locator('[data-testid="elicitation-card"][data-mode="form"]');
        await card.waitFor({ timeout: STEP_TIMEOUT_MS });
        await card.getByTestId('elicit-accept').focus();
        await p.keyboard.press('Enter');
        await card.getByTestId('elicit-invalid').waitFor();
        const focused = await focusedTestId(p);
        const firstInvalid = await card.locator('[aria-invalid="true"]').first().getAttribute('data-testid');
        assert.ok(firstInvalid, 'some field is marked invalid');
        assert.equal(focused, firstInvalid, 'focus moved to the first invalid field');
        await card.getByTestId('elicit-decline').click();
      },
      () => `browser mode output:\n${mode.output()}`,
    );
  },
);
