// MCP App views end to end (issue 13 items 2-4, must-shows 1 and 5): three example servers from
// npm answer a model's tool call in chat (the wire-exact fake Gemini asks for it); each view
// renders inside the sandbox proxy on the second loopback origin, receives the call's input
// and result, sizes itself, goes full screen and back; after a reload it is back from the
// stored call without the server seeing another tools/call; it follows the theme; and a view
// that never initializes falls back to the text result with a note.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { functionCall, reply, text } from '../fixtures/fake-gemini.js';
import { assertAccessible } from '../helpers/axe.js';
import { chromiumSkipReason, pageOrSkip } from '../helpers/chromium.js';
import { modelKeySkipReason } from '../helpers/e2e-app.js';
import { useE2eSession } from '../helpers/e2e-session.js';
import { join } from 'node:path';
import { appServer, nodeServer, REPO_ROOT } from '../helpers/server-processes.js';

const API_KEY = `e2e-${randomBytes(12).toString('hex')}`;
const STEP = 30_000;
const VIEWPORT = { width: 1300, height: 900 };
/** The silent view gets this long before the frame gives up (the product waits 10 s). */
const INIT_TIMEOUT_MS = 6000;
const skipReason = chromiumSkipReason ?? modelKeySkipReason;
const SERVERS = ['basic', 'budget', 'sysmon', 'silent'] as const;

const e2e = useE2eSession({
  name: 'mcp-app-views',
  skipReason,
  gemini: { apiKey: API_KEY, script: [] },
  config: {
    mcpServers: {
      basic: appServer('basicReact'),
      budget: appServer('budget'),
      sysmon: appServer('systemMonitor'),
      silent: nodeServer(join(REPO_ROOT, 'tests/fixtures/app-silent-view-server.mjs')),
    },
  },
  viewport: VIEWPORT,
  ownContext: true,
  connect: SERVERS,
  ready: async (session) => {
    await session.page.evaluate(
      (ms) => localStorage.setItem('mcp-desk:app-view-init-timeout-ms', String(ms)),
      INIT_TIMEOUT_MS,
    );
    await session.storeKey(session.page);
  },
});
const { shot, withEvidence } = e2e;

async function send(p: Page, message: string): Promise<void> {
  await p.getByTestId('nav-chat').click();
  const before = await p.locator('[data-testid^="conversation-item-"]').count();
  await p.getByTestId('new-chat').click();
  await p.locator('[data-testid^="conversation-item-"]').nth(before).waitFor({ timeout: STEP });
  await p.getByTestId('chat-input').fill(message);
  await p.getByTestId('chat-input').press('Enter');
  await p.getByTestId('message-user').filter({ hasText: message }).waitFor({ timeout: STEP });
}

/** Ask the model (the fake) to call `tool` on `server`, approve it, and wait for the card. */
async function callThroughChat(p: Page, server: string, tool: string, args: Record<string, unknown> = {}) {
  e2e.gemini!.enqueue(reply(functionCall(`${server}__${tool}`, args)), reply(text(`Called ${tool}.`)));
  await send(p, `please call ${tool}`);
  const approval = p.getByTestId('approval-card');
  await approval.waitFor({ timeout: STEP });
  await approval.getByTestId('approve-once').click();
  const card = p.locator(`[data-testid="tool-card"][data-status="done"]`).filter({ hasText: tool });
  await card.waitFor({ timeout: STEP });
  return card;
}

/** The view's own document: the proxy's inner frame `#view` inside the outer frame. */
async function innerFrame(p: Page, viewId: string): Promise<Frame> {
  const outer = p.locator(`[data-testid="app-view-frame"][data-view-id="${viewId}"]`);
  await p.frameLocator(`[data-testid="app-view-frame"][data-view-id="${viewId}"]`).locator('#view').waitFor({
    timeout: STEP,
  });
  const handle = await (await outer.elementHandle()).contentFrame();
  const inner = handle?.childFrames()[0];
  assert.ok(inner, 'the proxy built its inner frame');
  return inner;
}

/** How many tools/call requests the server's protocol trace shows. */
async function toolCallsOnWire(p: Page, server: string): Promise<number> {
  await p.getByTestId('nav-servers').click();
  await p.getByTestId(`server-row-${server}`).click();
  await p.getByTestId('tab-trace').click();
  await p.getByTestId('trace-filter').fill('"tools/call"');
  const count = await p.locator('[data-testid="trace-entry"].trace-out').count();
  await p.getByTestId('trace-filter').fill('');
  return count;
}

test(
  'a view renders in the sandbox with its input and result, resizes, and goes full screen and back',
  { timeout: 90_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p) return;
    await withEvidence(p, 'basic', async () => {
      const card = await callThroughChat(p, 'basic', 'get-time');
      const resultText = (await card.getByTestId('tool-card-result').textContent()) ?? '';
      const time = /\d{4}-\d\d-\d\dT[\d:.]+Z/.exec(resultText)?.[0];
      assert.ok(time, `the result holds a time: ${resultText}`);
      const view = card.getByTestId('app-view');
      await view.and(p.locator('[data-state="ready"]')).waitFor({ timeout: STEP });
      const frame = card.getByTestId('app-view-frame');
      assert.equal(await frame.getAttribute('title'), 'get-time view from basic');
      const viewId = (await frame.getAttribute('data-view-id')) ?? '';
      const sandboxOrigin = new URL((await frame.getAttribute('src')) ?? '').origin;
      assert.notEqual(sandboxOrigin, new URL(p.url()).origin, 'the sandbox is another origin than the app');
      const inner = await innerFrame(p, viewId);
      assert.equal(
        await inner.evaluate(() => window.origin),
        sandboxOrigin,
        'the view runs on the sandbox origin',
      );
      await inner.getByText(time).first().waitFor({ timeout: STEP });

      // size-changed: the frame leaves its loading height for the height the view reported.
      await p.waitForFunction(
        (id) => {
          const el = document.querySelector(`[data-view-id="${id}"]`);
          return el instanceof HTMLIFrameElement && el.style.height !== '' && el.style.height !== '160px';
        },
        viewId,
        { timeout: STEP },
      );

      await card.getByTestId('app-view-fullscreen').click();
      await view.and(p.locator('[data-display-mode="fullscreen"]')).waitFor({ timeout: STEP });
      const box = await view.boundingBox();
      assert.ok(
        box && box.width >= VIEWPORT.width - 2 && box.height >= VIEWPORT.height - 2,
        'full screen covers the app',
      );
      await shot(p, 'basic-fullscreen');
      await p.keyboard.press('Escape');
      await view.and(p.locator('[data-display-mode="inline"]')).waitFor({ timeout: STEP });
      await card.getByTestId('app-view-fullscreen').click();
      await card.getByTestId('app-view-exit-fullscreen').click();
      await view.and(p.locator('[data-display-mode="inline"]')).waitFor({ timeout: STEP });

      await p.emulateMedia({ colorScheme: 'light' });
      await shot(p, 'basic-light');
      await p.emulateMedia({ colorScheme: 'dark' });
      await shot(p, 'basic-dark');
      await assertAccessible(p, 'a chat with an interactive view', '[data-testid="chat-view"]');
      await p.emulateMedia({ colorScheme: 'light' });

      // A reload shows the view again from the stored call; the server sees no second call.
      const calls = await toolCallsOnWire(p, 'basic');
      assert.equal(calls, 1, 'one tools/call so far');
      await p.reload();
      await p.getByTestId('nav-chat').click();
      await p.locator('[data-testid^="conversation-item-"]').filter({ hasText: 'get-time' }).first().click();
      const again = p
        .locator('[data-testid="tool-card"]')
        .filter({ hasText: 'get-time' })
        .getByTestId('app-view');
      await again.and(p.locator('[data-state="ready"]')).waitFor({ timeout: STEP });
      const againId = (await again.getByTestId('app-view-frame').getAttribute('data-view-id')) ?? '';
      await (await innerFrame(p, againId)).getByText(time).first().waitFor({ timeout: STEP });
      assert.equal(await toolCallsOnWire(p, 'basic'), calls, 'the reload did not call the tool again');
    });
  },
);

test('the budget and system monitor views render in the sandbox', { timeout: 90_000 }, async (t) => {
  const p = pageOrSkip(t, skipReason, e2e.page);
  if (!p) return;
  await withEvidence(p, 'budget-sysmon', async () => {
    for (const [server, tool] of [
      ['budget', 'get-budget-data'],
      ['sysmon', 'get-system-info'],
    ] as const) {
      const card = await callThroughChat(p, server, tool);
      const view = card.getByTestId('app-view');
      await view.and(p.locator('[data-state="ready"]')).waitFor({ timeout: STEP });
      const viewId = (await card.getByTestId('app-view-frame').getAttribute('data-view-id')) ?? '';
      const inner = await innerFrame(p, viewId);
      await inner.waitForFunction(() => (document.body?.innerText.trim().length ?? 0) > 20, undefined, {
        timeout: STEP,
      });
      await shot(p, `${server}-view`);
    }
  });
});

test(
  'a view that never initializes falls back to the text result with a note',
  { timeout: 60_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p) return;
    await withEvidence(p, 'silent', async () => {
      const card = await callThroughChat(p, 'silent', 'silent');
      const view = card.getByTestId('app-view');
      await view.and(p.locator('[data-state="fallback"]')).waitFor({ timeout: STEP });
      assert.match(
        (await card.getByTestId('app-view-fallback').textContent()) ?? '',
        /did not start within 6 s/,
      );
      assert.match((await card.getByTestId('tool-card-result').textContent()) ?? '', /quiet result/);
      assert.equal(await card.getByTestId('app-view-frame').count(), 0, 'the silent frame is gone');
      await shot(p, 'silent-fallback');
    });
  },
);
