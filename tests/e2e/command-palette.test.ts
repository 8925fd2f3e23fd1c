// The app's keyboard: the command palette (Ctrl+K) over views, servers, tools, prompts and
// conversations, and the app shortcuts (new chat, search conversations, focus the message box,
// Settings, Esc closes the open panel). Real browser mode with server-everything over stdio, the
// real renderer in Chromium. Screenshots: test-results/e2e/palette-*.png (light, dark, 800x600).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { assertAccessible } from '../helpers/axe.js';
import { chromiumSkipReason, pageOrSkip } from '../helpers/chromium.js';
import { everythingSkipReason, EVERYTHING_STDIO } from '../helpers/e2e-app.js';
import { useE2eSession } from '../helpers/e2e-session.js';

const skipReason = chromiumSkipReason ?? everythingSkipReason;
const e2e = useE2eSession({
  name: 'command palette',
  prefix: 'palette',
  skipReason,
  config: { mcpServers: { everything: EVERYTHING_STDIO } },
  viewport: { width: 1280, height: 900 },
  connect: ['everything'],
});
const { shot, withEvidence } = e2e;

// Page functions are strings: this file is typed without the DOM library. Waits are locators
// (polling a string predicate would need eval, which the app's CSP forbids).
const focusedTestId = (p: Page) =>
  p.evaluate<string | null>(
    `document.activeElement?.closest('[data-testid]')?.getAttribute('data-testid') ?? null`,
  );
const conversationIds = (p: Page) =>
  p.evaluate<string[]>(
    `[...document.querySelectorAll('[data-testid^="conversation-item-"]')].map((i) => i.dataset.testid.slice('conversation-item-'.length))`,
  );

async function openPalette(p: Page): Promise<void> {
  await p.keyboard.press('Control+K');
  await p.getByTestId('command-palette-input').waitFor();
  assert.equal(await focusedTestId(p), 'command-palette-input', 'the search field has focus');
}

test('shortcuts: new chat, Settings, focus the message box, search, Esc closes the chat panel', async (t) => {
  const p = pageOrSkip(t, skipReason, e2e.session?.page ?? null);
  if (!p) return;
  await withEvidence(p, 'shortcuts', async () => {
    await p.getByTestId('nav-chat').click();
    const before = await conversationIds(p);
    await p.keyboard.press('Control+Shift+O');
    await p.locator('[data-testid^="conversation-item-"]').nth(before.length).waitFor();
    await p.locator('[data-testid="chat-input"]:focus').waitFor();

    await p.keyboard.press('Control+,');
    await p.getByTestId('settings-view').waitFor();
    assert.equal(await p.getByTestId('chat-view').isVisible(), false, 'Settings replaced Chat');

    await p.keyboard.press('Control+Shift+L');
    await p.locator('[data-testid="chat-input"]:focus').waitFor();
    assert.equal(await p.getByTestId('chat-view').isVisible(), true);

    await p.keyboard.press('Control+Shift+F');
    // The conversation search box where it exists, else the list itself: focus lands in the list.
    await p.locator('[data-testid="conversation-list"]:focus-within').waitFor();

    // The chat's settings panel closes on Esc even while focus is in the message box.
    await p.getByTestId('settings-open').click();
    await p.getByTestId('settings-panel').waitFor();
    await p.keyboard.press('Control+Shift+L');
    await p.locator('[data-testid="chat-input"]:focus').waitFor();
    await p.keyboard.press('Escape');
    await p.getByTestId('settings-panel').waitFor({ state: 'detached' });
  });
});

test('palette: Ctrl+K filters, Enter opens a tool, Esc closes and focus returns', async (t) => {
  const p = pageOrSkip(t, skipReason, e2e.session?.page ?? null);
  if (!p) return;
  await withEvidence(p, 'tool', async () => {
    await p.getByTestId('nav-servers').focus();
    await openPalette(p);
    assert.equal(
      await p.getByTestId('palette-item-view:chat').isVisible(),
      true,
      'views listed before typing',
    );
    await p.keyboard.type('echo');
    await p.getByTestId('palette-item-tool:everything/echo').waitFor();
    assert.equal(await p.getByTestId('palette-item-view:chat').count(), 0, 'filtered out');
    await shot(p, 'filtered');
    await p.keyboard.press('Enter');
    await p.getByTestId('command-palette').waitFor({ state: 'detached' });
    await p.getByTestId('tools-view').waitFor();
    await p.locator('[data-testid="tool-item-everything-echo"][aria-current="true"]').waitFor();
    assert.match(await p.getByTestId('tool-detail').locator('h2').innerText(), /echo/i);

    // Esc closes without going anywhere, and focus is back where it was.
    await p.getByTestId('nav-audit').focus();
    await openPalette(p);
    await p.keyboard.press('Escape');
    await p.getByTestId('command-palette').waitFor({ state: 'detached' });
    assert.equal(await focusedTestId(p), 'nav-audit');
    assert.equal(await p.getByTestId('tools-view').isVisible(), true);
  });
});

test('palette: a server, a prompt, a view and a conversation open where they live', async (t) => {
  const p = pageOrSkip(t, skipReason, e2e.session?.page ?? null);
  if (!p) return;
  await withEvidence(p, 'targets', async () => {
    await openPalette(p);
    await p.keyboard.type('everything');
    await p.getByTestId('palette-item-server:everything').click();
    await p.getByTestId('servers-view').waitFor();
    await p.getByTestId('server-details-everything').waitFor();

    await p.getByTestId('nav-prompts').click();
    const first = p.locator('[data-testid^="prompt-item-everything-"]').first();
    await first.waitFor();
    const name = ((await first.getAttribute('data-testid')) ?? '').slice('prompt-item-everything-'.length);
    await p.getByTestId('nav-chat').click();
    await openPalette(p);
    await p.keyboard.type(name);
    await p.getByTestId(`palette-item-prompt:everything/${name}`).click();
    await p.getByTestId('prompts-view').waitFor();
    await p.locator(`[data-testid="prompt-item-everything-${name}"].selected`).waitFor();
    await p.getByTestId('prompt-detail').waitFor();

    await openPalette(p);
    await p.keyboard.type('activity');
    await p.keyboard.press('Enter');
    await p.getByTestId('nav-audit').and(p.locator('[aria-current="page"]')).waitFor();

    // Two conversations; the palette opens the older one in Chat.
    await p.getByTestId('nav-chat').click();
    await p.keyboard.press('Control+Shift+O');
    await p.locator('[data-testid^="conversation-item-"]').nth(1).waitFor();
    const ids = await conversationIds(p);
    const older = ids.at(-1) ?? '';
    await p.getByTestId('nav-servers').click();
    await openPalette(p);
    await p.getByTestId(`palette-item-conversation:${older}`).click();
    await p.getByTestId('chat-view').waitFor();
    await p.locator(`[data-testid="conversation-item-${older}"].selected`).waitFor();
  });
});

test('palette: no serious accessibility violations; screenshots light, dark and 800x600', async (t) => {
  const p = pageOrSkip(t, skipReason, e2e.session?.page ?? null);
  if (!p) return;
  await withEvidence(p, 'axe', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      await p.emulateMedia({ colorScheme: scheme });
      await openPalette(p);
      await p.keyboard.type('e');
      await assertAccessible(p, `the command palette (${scheme})`);
      await shot(p, scheme);
      await p.keyboard.press('Escape');
      await p.getByTestId('command-palette').waitFor({ state: 'detached' });
    }
    await p.setViewportSize({ width: 800, height: 600 });
    await openPalette(p);
    await shot(p, '800x600');
    await p.keyboard.press('Escape');
    await p.setViewportSize({ width: 1280, height: 900 });
    await p.emulateMedia({ colorScheme: 'light' });
  });
});
