// Issue 24 §4, the small things, end to end in real Chromium on browser mode: the palette opens a
// tool with its form focused; a failed server does not look active
// (the tools chip counts it as failed, the nav's Servers item carries a badge, Chat says so).
// server-everything over stdio, and a server whose command does not exist.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumSkipReason, pageOrSkip } from '../helpers/chromium.js';
import { everythingSkipReason, EVERYTHING_STDIO } from '../helpers/e2e-app.js';
import { useE2eSession } from '../helpers/e2e-session.js';

const skipReason = chromiumSkipReason ?? everythingSkipReason;
const e2e = useE2eSession({
  name: 'polish',
  skipReason,
  config: {
    mcpServers: {
      everything: EVERYTHING_STDIO,
      broken: { command: '/nonexistent/mcp-desk-no-such-server' },
    },
  },
  viewport: { width: 800, height: 600 },
  connect: ['everything'],
});
const { shot, withEvidence } = e2e;

/** Where the focus is: the test id of the focused element's nearest marked ancestor, and its tag. */
const focusInside = (p: Page, testId: string) =>
  p.evaluate<boolean>(
    `Boolean(document.activeElement?.closest('[data-testid="${testId}"]')) && document.activeElement !== document.body`,
  );

test('the palette opens a tool with its first field focused', async (t) => {
  const p = pageOrSkip(t, skipReason, e2e.session?.page ?? null);
  if (!p) return;
  await withEvidence(p, 'palette-focus', async () => {
    await p.getByTestId('nav-tools').click();
    await p.getByTestId('tool-list').waitFor();
    await p.getByTestId('nav-chat').click();
    await p.keyboard.press('Control+K');
    await p.getByTestId('command-palette-input').waitFor();
    await p.keyboard.type('long running');
    const item = p.getByTestId('palette-item-tool:everything/trigger-long-running-operation');
    await item.waitFor();
    await p.keyboard.press('Enter');
    await p.getByTestId('command-palette').waitFor({ state: 'detached' });
    const row = p.locator(
      '[data-testid="tool-item-everything-trigger-long-running-operation"][aria-current="true"]',
    );
    await row.waitFor();
    // The form's first field has the focus: one Tab from the palette, not a hundred.
    await p
      .locator('[data-testid="tool-detail"] :is(input, select, textarea):focus')
      .waitFor({ timeout: 10_000 });
    assert.equal(await focusInside(p, 'tool-detail'), true, 'the focus is in the tool’s form');
    await shot(p, 'palette-tool-focused');
  });
});

test('a failed server does not look active: chip, nav badge and a note in Chat', async (t) => {
  const p = pageOrSkip(t, skipReason, e2e.session?.page ?? null);
  if (!p) return;
  await withEvidence(p, 'failed-server', async () => {
    await p.getByTestId('nav-servers').click();
    await p.locator('[data-testid="server-state-broken"][data-state="failed"]').waitFor({ timeout: 30_000 });
    const alert = p.getByTestId('nav-servers-alert');
    await alert.waitFor();
    assert.equal(await alert.textContent(), '1');

    await p.getByTestId('nav-chat').click();
    const chip = p.getByTestId('tools-chip');
    await chip.waitFor();
    const label = (await chip.textContent()) ?? '';
    assert.match(label, /^1 of 2 servers/, `the failed server is not counted as on (${label})`);
    assert.match(label, /1 failed/, `the chip says one failed (${label})`);
    const note = p.getByTestId('chat-failed-servers');
    await note.waitFor();
    assert.match((await note.textContent()) ?? '', /broken/);
    await shot(p, 'failed-server-chat');
    await note.getByTestId('chat-failed-servers-open').click();
    await p.getByTestId('servers-view').waitFor();
    await p.locator('[data-testid="server-row-broken"].selected').waitFor();
  });
});
