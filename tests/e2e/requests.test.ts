// Server-initiated forms, end to end with real parts: the real renderer in real Chromium, real
// browser mode, server-everything and the asker fixture over stdio asking the host for a form or
// a URL. A person answers in the Requests view; what they approved is what reaches the server.
// Sampling and tool approvals, which need the model, are in requests-model.test.ts. Screenshots
// of every step land in test-results/e2e/requests-*.png.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chromiumSkipReason, pageOrSkip } from '../helpers/chromium.js';
import {
  everythingSkipReason,
  EVERYTHING_STDIO,
  openEverythingTool as openTool,
} from '../helpers/e2e-app.js';
import { useE2eSession } from '../helpers/e2e-session.js';
import { ASKER } from '../fixtures/asker-server.js';

const STEP_TIMEOUT_MS = 30_000;

const skipReason = chromiumSkipReason ?? everythingSkipReason;

const e2e = useE2eSession({
  name: 'requests',
  skipReason,
  config: {
    mcpServers: {
      everything: EVERYTHING_STDIO,
      asker: { command: process.execPath, args: ['--input-type=module', '-e', ASKER] },
    },
  },
  viewport: { width: 1400, height: 1000 },
  connect: ['everything', 'asker'],
});
const { shot, withEvidence } = e2e;

test(
  'requests: an elicitation form shows a validation error, then is accepted',
  { timeout: 120_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p || !e2e.mode) return;
    await withEvidence(p, 'elicitation', async () => {
      assert.ok(
        await openTool(p, 'trigger-elicitation-request'),
        'server-everything offers trigger-elicitation-request',
      );
      await p.getByTestId('call-tool').click();

      await p.getByTestId('nav-requests-badge').waitFor({ timeout: STEP_TIMEOUT_MS });
      await p.getByTestId('nav-requests').click();
      const card = p.locator('[data-testid="elicitation-card"][data-mode="form"]');
      await card.waitFor({ timeout: STEP_TIMEOUT_MS });
      const item = p.getByTestId('request-item').filter({ has: card });
      assert.equal((await item.getByTestId('request-kind').textContent())?.trim(), 'Form');

      // The form is built from the schema: defaults filled in, right input types.
      assert.equal(await card.getByTestId('elicit-field-integer').inputValue(), '42');
      assert.equal(await card.getByTestId('elicit-field-integer').getAttribute('step'), '1');
      assert.equal(await card.getByTestId('elicit-field-email').getAttribute('type'), 'email');
      assert.equal(await card.getByTestId('elicit-field-birthdate').getAttribute('type'), 'date');
      assert.equal(await card.getByTestId('elicit-field-check').getAttribute('type'), 'checkbox');
      assert.equal(await card.getByTestId('elicit-field-titledSingleSelectEnum').inputValue(), 'hero-1');
      assert.equal(
        await card.getByTestId('elicit-option-untitledMultipleSelectEnum-0').isChecked(),
        true,
        'Guitar is the default',
      );
      assert.equal(
        await card.getByTestId('elicit-field-firstLine').inputValue(),
        'It was a dark and stormy night.',
      );
      await shot(p, '05-elicitation-form');

      // Accept with the required name empty: nothing is sent, the field says why.
      await card.getByTestId('elicit-accept').click();
      await card.getByTestId('elicit-error-name').waitFor();
      assert.match((await card.getByTestId('elicit-error-name').textContent()) ?? '', /required/);

      // An out-of-range integer is flagged as it is typed.
      await card.getByTestId('elicit-field-name').fill('Ada Lovelace');
      await card.getByTestId('elicit-field-integer').fill('150');
      await card.getByTestId('elicit-error-integer').waitFor();
      assert.match((await card.getByTestId('elicit-error-integer').textContent()) ?? '', /at most 100/);
      assert.equal(
        await card.getByTestId('elicit-error-name').count(),
        0,
        'the fixed field no longer complains',
      );
      await shot(p, '06-elicitation-invalid');
      await card.getByTestId('elicit-accept').click();
      assert.equal(await card.count(), 1, 'an invalid form is not sent');

      await card.getByTestId('elicit-field-integer').fill('7');
      await card.getByTestId('elicit-error-integer').waitFor({ state: 'detached' });
      await card.getByTestId('elicit-field-email').fill('ada@example.com');
      await shot(p, '07-elicitation-fixed');
      await card.getByTestId('elicit-accept').click();
      await card.waitFor({ state: 'detached', timeout: STEP_TIMEOUT_MS });

      await p.getByTestId('nav-tools').click();
      const result = p.getByTestId('tool-result');
      await result.filter({ hasText: 'Favorite Integer: 7' }).waitFor({ timeout: STEP_TIMEOUT_MS });
      const shown = (await result.textContent()) ?? '';
      assert.match(shown, /Name: Ada Lovelace/);
      assert.match(shown, /Email: ada@example\.com/);
      assert.match(shown, /"action": "accept"/);
      await shot(p, '08-elicitation-result');
    });
  },
);

test(
  'requests: a URL elicitation shows the whole URL and its domain; Decline is not Cancel',
  { timeout: 90_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p || !e2e.mode) return;
    await withEvidence(p, 'url', async () => {
      const url = 'https://auth.example.com/consent?client=mcp-desk&state=a1b2c3d4e5f6&scope=read%20write';
      assert.ok(
        await openTool(p, 'trigger-url-elicitation'),
        'server-everything offers trigger-url-elicitation',
      );
      await p.getByTestId('field-url').fill(url);
      await p.getByTestId('call-tool').click();

      await p.getByTestId('nav-requests-badge').waitFor({ timeout: STEP_TIMEOUT_MS });
      await p.getByTestId('nav-requests').click();
      const card = p.locator('[data-testid="elicitation-card"][data-mode="url"]');
      await card.waitFor({ timeout: STEP_TIMEOUT_MS });
      assert.equal(
        (await card.getByTestId('elicit-url').textContent())?.trim(),
        url,
        'the full URL, not shortened',
      );
      assert.equal((await card.getByTestId('elicit-domain').textContent())?.trim(), 'auth.example.com');
      assert.match((await card.getByTestId('elicit-accept').textContent()) ?? '', /Open in browser/);
      await card.getByTestId('elicit-cancel').waitFor();
      await shot(p, '09-url-elicitation');

      await card.getByTestId('elicit-decline').click();
      await card.waitFor({ state: 'detached', timeout: STEP_TIMEOUT_MS });
      await p.getByTestId('nav-tools').click();
      const result = p.getByTestId('tool-result');
      await result.filter({ hasText: 'declined to open the URL' }).waitFor({ timeout: STEP_TIMEOUT_MS });
      assert.match((await result.textContent()) ?? '', /"action": "decline"/);
    });
  },
);

test(
  'requests: a form asking for a secret is flagged, and its markup stays text',
  { timeout: 90_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p || !e2e.mode) return;
    await withEvidence(p, 'secret', async () => {
      await p.getByTestId('nav-tools').click();
      await p.getByTestId('tool-item-asker-ask-secret').click();
      await p.getByTestId('call-tool').click();
      await p.getByTestId('nav-requests').click();
      const card = p.locator('[data-testid="elicitation-card"][data-mode="form"]');
      await card.waitFor({ timeout: STEP_TIMEOUT_MS });
      assert.match((await card.getByTestId('elicit-warning').textContent()) ?? '', /apiToken.*secret/);
      assert.match(
        (await card.getByTestId('elicit-message').textContent()) ?? '',
        /<script>window.__pwned = 1<\/script>Please <b>confirm<\/b>/,
        'the message is shown as text',
      );
      assert.equal(await card.locator('script, img, b, i').count(), 0, 'no server markup became elements');
      assert.equal(
        await p.evaluate(() => (globalThis as { __pwned?: number }).__pwned),
        undefined,
        'no server script ran',
      );
      assert.equal(
        await card.getByTestId('elicit-field-colour').inputValue(),
        '',
        'an optional select without a default starts unchosen',
      );

      // Too short for minLength: flagged as typed; Cancel still answers (cancel, not decline).
      await card.getByTestId('elicit-field-apiToken').fill('abc');
      assert.match((await card.getByTestId('elicit-error-apiToken').textContent()) ?? '', /at least 8/);
      await shot(p, '10-secret-warning');
      await card.getByTestId('elicit-cancel').click();
      await card.waitFor({ state: 'detached', timeout: STEP_TIMEOUT_MS });
      await p.getByTestId('nav-tools').click();
      await p
        .getByTestId('tool-result')
        .filter({ hasText: 'asker got {"action":"cancel"}' })
        .waitFor({ timeout: STEP_TIMEOUT_MS });
    });
  },
);
