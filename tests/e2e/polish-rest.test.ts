// Issue 24 §4, the rest of the small things, end to end in real Chromium on browser mode: the
// Prompts search keeps the chosen prompt and its typed arguments; Permissions says its help once;
// the completion list leaves the URI preview in view; the palette scrolls the Tools list to the
// tool it opened; the Activity summary is inset, collapsed, and its percentiles stable.
// server-everything over stdio (twice, so Permissions has two servers).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chromiumSkipReason, pageOrSkip } from '../helpers/chromium.js';
import { everythingSkipReason, EVERYTHING_STDIO } from '../helpers/e2e-app.js';
import { useE2eSession } from '../helpers/e2e-session.js';

const skipReason = chromiumSkipReason ?? everythingSkipReason;
const e2e = useE2eSession({
  name: 'polish-rest',
  skipReason,
  config: { mcpServers: { everything: EVERYTHING_STDIO, second: EVERYTHING_STDIO } },
  viewport: { width: 800, height: 600 },
  connect: ['everything', 'second'],
});
const { shot, withEvidence } = e2e;

test('clearing the Prompts search keeps the chosen prompt and its typed arguments', async (t) => {
  const p = pageOrSkip(t, skipReason, e2e.session?.page ?? null);
  if (!p) return;
  await withEvidence(p, 'prompts-search', async () => {
    await p.getByTestId('nav-prompts').click();
    const search = p.getByTestId('prompt-search');
    await search.fill('args');
    await p.getByTestId('prompt-item-everything-args-prompt').click();
    await p.getByTestId('prompt-arg-city').fill('Lisbon');
    // A search that hides the chosen prompt, then cleared.
    await search.fill('simple');
    await search.fill('');
    await p.getByTestId('prompt-item-second-args-prompt').waitFor();
    assert.equal(await p.getByTestId('prompt-arg-city').inputValue(), 'Lisbon');
    await p.locator('[data-testid="prompt-item-everything-args-prompt"].selected').waitFor();
    // The search box's own clear (Escape in a search field) keeps them too.
    await search.fill('args');
    await search.press('Escape');
    await p.getByTestId('prompt-item-second-args-prompt').waitFor();
    assert.equal(await search.inputValue(), '');
    assert.equal(await p.getByTestId('prompt-arg-city').inputValue(), 'Lisbon');
    await shot(p, 'prompts-search-cleared');
  });
});

test('Permissions says what Trust and views mean once, not once per server', async (t) => {
  const p = pageOrSkip(t, skipReason, e2e.session?.page ?? null);
  if (!p) return;
  await withEvidence(p, 'permissions-help', async () => {
    await p.getByTestId('nav-permissions').click();
    await p.getByTestId('permissions-second').waitFor();
    const count = (text: string) => p.locator('.permissions-view p', { hasText: text }).count();
    assert.equal(await count('Trust holds for the server’s current command'), 1);
    assert.equal(await count('in a sandbox that cannot reach the app'), 1);
    // Each switch still points at its explanation.
    const described = await p.getByTestId('trust-switch-second').getAttribute('aria-describedby');
    assert.ok(described, 'the Trust switch is described');
    assert.match((await p.locator(`[id="${described}"]`).textContent()) ?? '', /Trust holds/);
    await shot(p, 'permissions-help-once');
  });
});

test('the completion list leaves the URI preview of a resource template in view', async (t) => {
  const p = pageOrSkip(t, skipReason, e2e.session?.page ?? null);
  if (!p) return;
  await withEvidence(p, 'template-completion', async () => {
    await p.getByTestId('nav-resources').click();
    await p.getByTestId('template-item-everything-Dynamic Text Resource').click();
    const field = p.getByTestId('template-var-resourceId');
    await field.click();
    await field.fill('5');
    const list = p.getByTestId('template-var-resourceId-suggestions');
    await list.waitFor();
    const preview = p.getByTestId('template-uri');
    assert.match((await preview.textContent()) ?? '', /\/5$/);
    const a = await list.boundingBox();
    const b = await preview.boundingBox();
    assert.ok(a && b, 'both are laid out');
    const overlap =
      a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    assert.equal(overlap, false, `the list (${JSON.stringify(a)}) covers the preview (${JSON.stringify(b)})`);
    await shot(p, 'template-completion-preview');
  });
});

test('the palette scrolls the Tools list to the tool it opened', async (t) => {
  const p = pageOrSkip(t, skipReason, e2e.session?.page ?? null);
  if (!p) return;
  await withEvidence(p, 'palette-scroll', async () => {
    await p.getByTestId('nav-chat').click();
    await p.keyboard.press('Control+K');
    await p.getByTestId('command-palette-input').waitFor();
    // The second server's tools sit below the first's: far out of an 800x600 list's view.
    await p.keyboard.type('second long running');
    await p.getByTestId('palette-item-tool:second/trigger-long-running-operation').waitFor();
    await p.getByTestId('palette-item-tool:second/trigger-long-running-operation').click();
    const row = p.locator(
      '[data-testid="tool-item-second-trigger-long-running-operation"][aria-current="true"]',
    );
    await row.waitFor();
    await p.locator('[data-testid="tool-detail"] :is(input, select, textarea):focus').waitFor();
    // Wait for the list to settle, then the row must be inside the list's visible box.
    await p.waitForFunction(
      () => {
        const list = document.querySelector('[data-testid="tool-list"]');
        const item = document.querySelector(
          '[data-testid="tool-item-second-trigger-long-running-operation"]',
        );
        if (!list || !item) return false;
        const a = list.getBoundingClientRect();
        const b = item.getBoundingClientRect();
        return b.top >= a.top && b.bottom <= a.bottom && b.bottom <= window.innerHeight;
      },
      undefined,
      { timeout: 10_000 },
    );
    await shot(p, 'palette-tool-scrolled');
  });
});

test('the Activity summary is inset from the nav, not full width, and collapsed at first', async (t) => {
  const p = pageOrSkip(t, skipReason, e2e.session?.page ?? null);
  if (!p) return;
  await withEvidence(p, 'activity-summary', async () => {
    await p.getByTestId('nav-audit').click();
    const summary = p.getByTestId('metrics-summary');
    await summary.waitFor();
    assert.equal(await summary.evaluate((el) => el.hasAttribute('open')), false, 'collapsed by default');
    await p.getByTestId('metrics-summary-toggle').click();
    assert.equal(await summary.evaluate((el) => el.hasAttribute('open')), true, 'opens on a click');
    const box = await summary.boundingBox();
    const view = await p.getByTestId('audit-view').boundingBox();
    assert.ok(box && view, 'both are laid out');
    assert.ok(box.x - view.x >= 16, `inset from the nav (${box.x - view.x}px)`);
    assert.ok(view.x + view.width - (box.x + box.width) >= 16, 'inset on the right too');
    await shot(p, 'activity-summary-open');
  });
});

test('Add from server.json… gives the window no horizontal scrollbar at 800x600', async (t) => {
  const p = pageOrSkip(t, skipReason, e2e.session?.page ?? null);
  if (!p) return;
  await withEvidence(p, 'server-json-no-scrollbar', async () => {
    await p.getByTestId('nav-registry').click();
    await p.getByTestId('registry-add-json').click();
    await p.getByTestId('server-json-file').waitFor({ state: 'attached' });
    // The panel scrolled fully into view, as a person reading down to "Choose file…" would.
    await p.getByTestId('server-json-preview').scrollIntoViewIfNeeded();
    const widths = await p.evaluate(() => {
      const root = document.scrollingElement ?? document.documentElement;
      return { scroll: root.scrollWidth, client: root.clientWidth };
    });
    assert.ok(
      widths.scroll <= widths.client,
      `the window scrolls sideways: scrollWidth ${widths.scroll} > clientWidth ${widths.client}`,
    );
    await shot(p, 'server-json-panel');
  });
});
