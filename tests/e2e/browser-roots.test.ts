// The Folders view in real Chromium against real browser mode: a relative path is refused
// with the host's message inline, an absolute path is added, renamed and removed, and a drop
// carrying text/uri-list file:// URIs adds those folders.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { type Browser, type Page } from 'playwright-core';
import {
  chromiumSkipReason,
  launchChromium,
  logPageErrors,
  pageOrSkip,
  withEvidence,
} from '../helpers/chromium.js';
import { startBrowserMode, type BrowserMode } from '../helpers/browser-mode.js';

const skipReason = chromiumSkipReason;

let mode: BrowserMode | null = null;
let browser: Browser | null = null;
let page: Page | null = null;
let folder = '';

before(async () => {
  folder = await mkdtemp(join(tmpdir(), 'mcp-desk-roots-e2e-'));
  if (skipReason) {
    console.log(`browser roots e2e skipped: ${skipReason}`);
    return;
  }
  mode = await startBrowserMode();
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  logPageErrors(page);
});

after(async () => {
  await browser?.close();
  await mode?.stop();
  await rm(folder, { recursive: true, force: true });
});

test(
  'Folders: refuse a relative path, add, rename, remove, and accept a uri-list drop',
  { timeout: 120_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, page);
    if (!p || !mode) return;
    await withEvidence(
      p,
      'roots',
      async () => {
        await p.goto(mode!.url);
        await p.getByTestId('nav-roots').click();
        await p.getByTestId('roots-empty').waitFor();
        // A browser never learns a dropped folder's path: the view says to type it, and offers no OS picker.
        assert.match(await p.getByTestId('roots-empty').innerText(), /Type a folder path/);
        assert.equal(await p.getByTestId('root-pick').count(), 0);

        await p.getByTestId('root-path-input').fill('not/absolute');
        await p.getByTestId('root-add').click();
        const error = p.getByTestId('roots-error');
        await error.waitFor();
        assert.match(await error.innerText(), /absolute path/);

        await p.getByTestId('root-path-input').fill(folder);
        await p.getByTestId('root-add').click();
        await p.getByTestId('root-row').first().waitFor();
        assert.equal(await p.getByTestId('root-row').count(), 1);
        assert.ok((await p.getByTestId('root-row').first().innerText()).includes(folder));
        assert.equal(await p.getByTestId('roots-error').count(), 0);

        await p.getByTestId('root-name-input').first().fill('Notes');
        await p.getByTestId('root-name-input').first().press('Enter');
        // The rename reached the host: after a reload the name comes back from roots.list.
        const deadline = Date.now() + 15_000;
        for (;;) {
          await p.reload();
          await p.getByTestId('nav-roots').click();
          await p.getByTestId('root-row').first().waitFor();
          if ((await p.getByTestId('root-name-input').first().inputValue()) === 'Notes') break;
          assert.ok(Date.now() < deadline, 'the new name is saved on the host');
          await p.waitForTimeout(200);
        }

        await p.getByTestId('root-remove').first().click();
        await p.getByTestId('roots-empty').waitFor();

        // A drop from a file manager carries file:// URIs in text/uri-list.
        const uri = pathToFileURL(folder).href;
        // A string, because this file is typed without the DOM library; it runs in the page.
        await p.evaluate(`(() => {
      const data = new DataTransfer();
      data.setData('text/uri-list', '# comment\\r\\n' + ${JSON.stringify(uri)} + '\\r\\nhttps://example.com/\\r\\n');
      const view = document.querySelector('[data-testid="roots-view"]');
      view.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    })()`);
        await p.getByTestId('root-row').first().waitFor();
        assert.equal(await p.getByTestId('root-row').count(), 1);
        assert.ok(
          (await p.getByTestId('roots-outcome').innerText()).includes(`Shared: ${uri}`),
          'the view says what was shared',
        );

        // A dropped file without a path (all a browser can offer) is explained, and nothing changes.
        await p.evaluate(`(() => {
      const data = new DataTransfer();
      data.items.add(new File(['x'], 'notes.txt', { type: 'text/plain' }));
      const view = document.querySelector('[data-testid="roots-view"]');
      view.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    })()`);
        await p.getByTestId('roots-add-error').filter({ hasText: 'no local path' }).waitFor();
        assert.equal(await p.getByTestId('root-row').count(), 1);
      },
      () => mode && `browser mode output:\n${mode.output()}`,
    );
  },
);
