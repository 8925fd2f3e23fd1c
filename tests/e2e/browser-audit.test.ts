// The Activity view in real Chromium against real browser mode: server-everything connects,
// its connection shows up as an audit row, the kind filter narrows the table, and Export
// downloads the records as JSON lines.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pageOrSkip, saveScreenshot } from '../helpers/chromium.js';
import { readDownload } from '../helpers/e2e-app.js';
import { everythingPage } from '../helpers/everything-page.js';

const setup = everythingPage('browser audit e2e', { acceptDownloads: true });
const skipReason = setup.skipReason;

test(
  'Activity shows the connection record, filters by kind, and exports JSON lines',
  { timeout: 120_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, setup.page());
    const mode = setup.mode();
    if (!p || !mode) return;
    try {
      await p.goto(mode.url);
      await p.getByTestId('nav-audit').click();
      // The server connects in the background: refresh until its record is there.
      const deadline = Date.now() + 60_000;
      while ((await p.getByTestId('audit-row').filter({ hasText: 'connected' }).count()) === 0) {
        assert.ok(Date.now() < deadline, 'a connected record appears within a minute');
        await p.waitForTimeout(250);
        await p.getByTestId('audit-refresh').click();
      }
      const row = p.getByTestId('audit-row').filter({ hasText: 'connected' }).first();
      assert.match(await row.innerText(), /everything/);
      await row.locator('summary').click();
      await saveScreenshot(p, 'audit-activity', false);

      await p.getByTestId('audit-filter-kind').selectOption('tool-call');
      await p.getByTestId('audit-empty').waitFor();
      await p.getByTestId('audit-filter-kind').selectOption('connection');
      await p.getByTestId('audit-filter-server').selectOption('everything');
      await row.waitFor();

      const [download] = await Promise.all([
        p.waitForEvent('download'),
        p.getByTestId('audit-export').click(),
      ]);
      assert.match(download.suggestedFilename(), /^mcp-desk-audit-\d{4}-\d{2}-\d{2}\.jsonl$/);
      const lines = (await readDownload(download)).trimEnd().split('\n');
      const records = lines.map((l) => JSON.parse(l) as { kind: string; serverId?: string; action: string });
      assert.ok(
        records.length >= 1 && records.every((r) => r.kind === 'connection' && r.serverId === 'everything'),
      );
      assert.ok(records.some((r) => r.action === 'connected'));
    } catch (error) {
      await saveScreenshot(p, 'audit-FAILED').catch(() => undefined);
      console.log(`browser mode output:\n${mode.output()}`);
      throw error;
    }
  },
);
