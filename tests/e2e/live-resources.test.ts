// Live resources and the server log level (issue 13 item 5), end to end: the real renderer in
// Chromium through browser mode, server-everything over stdio and over Streamable HTTP. An open
// resource says "Updated just now" after the server announces a change (server-everything sends
// one every 5 s once its toggle tool ran) and closing it sends resources/unsubscribe; an attached
// resource's chip says it changed; the log tab's level select sends logging/setLevel. What the
// host sent is read from the app's own protocol trace. Screenshots: test-results/e2e/live-*.png.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Browser, type Page } from 'playwright-core';
import { assertAccessible } from '../helpers/axe.js';
import { startBrowserMode, type BrowserMode } from '../helpers/browser-mode.js';
import {
  chromiumSkipReason,
  launchChromium,
  logPageErrors,
  pageOrSkip,
  saveScreenshot,
  withEvidence,
} from '../helpers/chromium.js';
import { openConnected } from '../helpers/e2e-session.js';
import { EVERYTHING_SERVER, everythingSkipReason } from '../helpers/e2e-app.js';
import { CleanupStack, startEverythingHttp } from '../helpers/host-harness.js';

const STEP_MS = 30_000;
const URI = 'demo://resource/static/document/architecture.md';
const SERVERS = ['everything', 'every-http'] as const;
const skipReason = chromiumSkipReason ?? everythingSkipReason;

const stack = new CleanupStack();
let mode: BrowserMode | null = null;
let browser: Browser | null = null;
let page: Page | null = null;

before(async () => {
  if (skipReason) return void console.log(`live resources e2e skipped: ${skipReason}`);
  const http = await startEverythingHttp(stack, 'streamableHttp');
  mode = await startBrowserMode({
    config: {
      mcpServers: {
        everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
        'every-http': { url: `${http.origin}/mcp` },
      },
    },
  });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  logPageErrors(page);
  await openConnected(page, mode.url, SERVERS);
});
after(async () => {
  await browser?.close();
  await mode?.stop();
  await stack.run();
});

/** Run a tool of `serverId` with no arguments from the Tools view. */
async function callTool(p: Page, serverId: string, tool: string): Promise<void> {
  await p.getByTestId('nav-tools').click();
  // The list is virtualised: search, so the tool's row is rendered.
  await p.getByTestId('tool-search').fill(tool);
  await p.getByTestId(`tool-item-${serverId}-${tool}`).click();
  await p.getByTestId('call-tool').click();
  await p.locator('[data-testid="tool-result"][data-status="ok"]').waitFor({ timeout: STEP_MS });
}

/** The server's trace entries whose method or text matches `filter`, as the Trace tab lists them. */
async function traceCount(p: Page, serverId: string, filter: string): Promise<number> {
  await p.getByTestId('nav-servers').click();
  await p.getByTestId(`server-row-${serverId}`).click();
  await p.getByTestId('tab-trace').click();
  await p.getByTestId('trace-filter').fill(filter);
  return p.getByTestId('trace-entry').count();
}

async function waitForTrace(p: Page, serverId: string, filter: string, atLeast: number): Promise<number> {
  const deadline = Date.now() + STEP_MS;
  for (;;) {
    const n = await traceCount(p, serverId, filter);
    if (n >= atLeast) return n;
    if (Date.now() > deadline) throw new Error(`trace of ${serverId}: ${n} "${filter}", wanted ${atLeast}`);
    await p.waitForTimeout(250);
  }
}

for (const serverId of SERVERS) {
  test(
    `live resources (${serverId}): an open resource updates, and closing it unsubscribes`,
    { timeout: 120_000 },
    async (t) => {
      const p = pageOrSkip(t, skipReason, page);
      if (!p) return;
      await withEvidence(p, `live-${serverId}`, async () => {
        await callTool(p, serverId, 'toggle-subscriber-updates');
        const unsubscribed = await traceCount(p, serverId, 'resources/unsubscribe');
        const reads = await traceCount(p, serverId, URI);

        await p.getByTestId('nav-resources').click();
        await p.getByTestId(`resource-item-${serverId}-architecture.md`).click();
        const detail = p.getByTestId('resource-detail');
        await detail.getByTestId('resource-live').waitFor({ timeout: STEP_MS });
        const note = detail.getByTestId('resource-updated');
        assert.equal(await note.getAttribute('role'), 'status');
        // server-everything announces subscribed resources every 5 s.
        await note.filter({ hasText: 'Updated just now' }).waitFor({ timeout: STEP_MS });
        await assertAccessible(p, 'live resource', '[data-testid="resource-detail"]');
        await saveScreenshot(p, `live-${serverId}-updated`, false);

        // Navigating away closes the resource: the host tells the server it no longer watches it,
        // and the update made the view read the resource again (subscribe, reads, unsubscribe).
        assert.ok(
          (await waitForTrace(p, serverId, 'resources/unsubscribe', unsubscribed + 1)) > unsubscribed,
        );
        assert.ok((await traceCount(p, serverId, URI)) >= reads + 4, 'subscribe, two reads, unsubscribe');
      });
    },
  );
}

test(
  'live resources: an attached resource says it changed since it was attached',
  { timeout: 120_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, page);
    if (!p) return;
    await withEvidence(p, 'live-attachment', async () => {
      await p.getByTestId('nav-resources').click();
      await p.getByTestId('resource-item-everything-architecture.md').click();
      await p.getByTestId('resource-attach-to-chat').click();
      const chip = p.getByTestId('attachment-chip');
      await chip.waitFor({ timeout: STEP_MS });
      await chip.getByTestId('attachment-changed').waitFor({ timeout: STEP_MS });
      assert.match((await chip.getAttribute('title')) ?? '', /changed on the server/);
      await assertAccessible(p, 'changed attachment chip', '[data-testid="composer"]');
      await saveScreenshot(p, 'live-attachment-changed', false);
      const unsubscribed = await traceCount(p, 'everything', 'resources/unsubscribe');
      await p.getByTestId('nav-chat').click();
      await p.getByTestId('attachment-remove').click();
      await waitForTrace(p, 'everything', 'resources/unsubscribe', unsubscribed + 1);
      // Stop server-everything's updates again.
      await callTool(p, 'everything', 'toggle-subscriber-updates');
    });
  },
);

test('log level: the select sends logging/setLevel and keeps the choice', { timeout: 120_000 }, async (t) => {
  const p = pageOrSkip(t, skipReason, page);
  if (!p) return;
  await withEvidence(p, 'live-log-level', async () => {
    await p.getByTestId('nav-servers').click();
    await p.getByTestId('server-row-everything').click();
    await p.getByTestId('tab-log').click();
    const select = p.getByTestId('log-level-select');
    await select.waitFor({ timeout: STEP_MS });
    assert.equal(await select.isEnabled(), true);
    await select.selectOption('debug');
    await p.locator('[data-testid="log-level-select"]:not([disabled])').waitFor();
    await assertAccessible(p, 'log level select', '[data-testid="log-level"]');
    await saveScreenshot(p, 'live-log-level', false);
    await waitForTrace(p, 'everything', 'logging/setLevel', 1);
    // The request itself carries the level (the filter also reads each message's JSON).
    await waitForTrace(p, 'everything', '"method":"logging/setlevel","params":{"level":"debug"', 1);
    // The choice is the host's: the select shows it again after switching tabs.
    await p.getByTestId('tab-log').click();
    assert.equal(await p.getByTestId('log-level-select').inputValue(), 'debug');
  });
});
