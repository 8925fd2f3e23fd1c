/**
 * Renderer benchmark: the built renderer in real Chromium against real browser mode, with
 * 2,000 tools (four many-tools fixture servers of 500) and a seeded 1,000-message conversation.
 *   ui_filter_2000_ms     keystroke in the Tools search to the filtered list painted (median)
 *   thread_1000_open_ms   click on the conversation to its newest message painted, Markdown
 *                         rendered (median of later opens; the first, which also fetches the
 *                         Markdown chunk, is thread_1000_first_open_ms)
 *   renderer_first_js_kb  gzip size of the JS the first view fetched (KiB)
 * Times come from the page's own clock: the event's timeStamp to a task queued after the
 * next animation frame (the frame that shows the result has been produced by then).
 * Needs `node scripts/build.mjs` first. Goals: <= 50, <= 300, <= 250. No timing is asserted.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { startBrowserMode, type BrowserMode } from '../helpers/browser-mode.js';
import { chromiumSkipReason, launchChromium } from '../helpers/chromium.js';
import {
  manyToolsConfig,
  messageId,
  RENDERER_DIR,
  recordScripts,
  seedConversation,
} from '../helpers/ui-scale.js';

const SERVERS = 4;
const PER_SERVER = 500;
const MESSAGES = 1000;
const LONG = 'benchlongthread';
const SHORT = 'benchshortthread';
const FILTER_ROUNDS = Number(process.env.BENCH_UI_FILTER_ROUNDS ?? 3);
const OPENS = Number(process.env.BENCH_UI_OPENS ?? 5);
const TYPED = 'tool-19';

// Installed once per page (as a string: page code must not carry tsx's helpers). `arm` waits for
// the next `type` event on `selector`, then polls each frame until `done()` holds, then resolves
// with the time from the event to a task after the following frame.
const PROBE = `(() => {
  const afterPaint = (t0, resolve) =>
    requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => resolve(performance.now() - t0);
      ch.port2.postMessage(0);
    });
  window.__benchArm = (type, selector, done) => {
    window.__benchPending = new Promise((resolve) => {
      const target = document.querySelector(selector);
      if (!target) throw new Error('no ' + selector);
      target.addEventListener(type, (e) => {
        const t0 = e.timeStamp;
        const check = () => (done() ? afterPaint(t0, resolve) : requestAnimationFrame(check));
        requestAnimationFrame(check);
      }, { once: true, capture: true });
    });
  };
})()`;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

const round1 = (n: number): number => Math.round(n * 10) / 10;

/** Types TYPED into the Tools search, one key at a time, timing each; returns every sample. */
async function filterSamples(p: Page): Promise<number[]> {
  const samples: number[] = [];
  const search = p.getByTestId('tool-search');
  for (let round = 0; round < FILTER_ROUNDS; round++) {
    await search.fill('');
    await search.focus();
    for (let i = 0; i < TYPED.length; i++) {
      const expected = TYPED.slice(0, i + 1);
      // Done once React has shown the new query's results: the input holds it and the list's
      // size (aria-setsize) or its empty note agrees with a count made here, in the page.
      await p.evaluate(`window.__benchArm('keydown', '[data-testid="tool-search"]', () => {
        const input = document.querySelector('[data-testid="tool-search"]');
        return input && input.value === ${JSON.stringify(expected)};
      })`);
      await p.keyboard.type(TYPED[i]);
      samples.push(await p.evaluate<number>('window.__benchPending'));
    }
  }
  return samples;
}

/** Opens the long conversation from the short one `OPENS + 1` times; returns every sample. */
async function openSamples(p: Page): Promise<number[]> {
  const samples: number[] = [];
  const done = `() => {
    const last = document.querySelector('[data-message-id="${messageId(MESSAGES)}"] [data-testid="assistant-text"]');
    return last !== null && last.querySelector('[data-testid="markdown-loading"]') === null;
  }`;
  for (let i = 0; i <= OPENS; i++) {
    await p.getByTestId(`conversation-item-${SHORT}`).getByRole('button').first().click();
    await p.locator(`[data-message-id="${messageId(1)}"]`).waitFor();
    const button = `[data-testid="conversation-item-${LONG}"] button`;
    await p.evaluate(`window.__benchArm('click', '${button}', ${done})`);
    await p.locator(button).first().click();
    samples.push(await p.evaluate<number>('window.__benchPending'));
  }
  return samples;
}

/** Runs the renderer bench; throws when Chromium or the build is missing. */
export async function runUiBench(): Promise<Record<string, number>> {
  if (chromiumSkipReason) throw new Error(`ui bench needs Chromium: ${chromiumSkipReason}`);
  let mode: BrowserMode | null = null;
  const browser = await launchChromium();
  try {
    mode = await startBrowserMode({ config: manyToolsConfig(SERVERS, PER_SERVER) });
    const now = Date.now();
    seedConversation(mode.configPath, {
      id: LONG,
      title: 'Long',
      updatedAt: now - 60_000,
      messages: MESSAGES,
    });
    seedConversation(mode.configPath, {
      id: SHORT,
      title: 'Short',
      updatedAt: now,
      messages: 1,
      lastRole: 'user',
    });
    const p = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await p.addInitScript(PROBE);
    const scripts = recordScripts(p);

    await p.goto(mode.url);
    await p.getByTestId('message-user').waitFor({ timeout: 30_000 });
    await p.waitForLoadState('networkidle');
    const firstJs = [...new Set(scripts.paths)];
    const firstBytes = firstJs.reduce(
      (sum, path) => sum + gzipSync(readFileSync(join(RENDERER_DIR, path))).length,
      0,
    );

    await p.getByTestId('nav-tools').click();
    await p
      .locator(`[role="listitem"][aria-setsize="${SERVERS * PER_SERVER + SERVERS}"]`)
      .first()
      .waitFor({ timeout: 60_000 });
    const filter = await filterSamples(p);

    await p.getByTestId('nav-chat').click();
    const opens = await openSamples(p);
    return {
      ui_filter_2000_ms: round1(median(filter)),
      ui_filter_2000_max_ms: round1(Math.max(...filter)),
      thread_1000_open_ms: round1(median(opens.slice(1))),
      thread_1000_first_open_ms: round1(opens[0]),
      renderer_first_js_kb: round1(firstBytes / 1024),
      renderer_first_js_files: firstJs.length,
    };
  } finally {
    await browser.close();
    await mode?.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runUiBench().then(
    (result) => console.log(JSON.stringify(result)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
