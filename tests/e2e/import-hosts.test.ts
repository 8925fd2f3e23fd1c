// Import from other apps in the real UI (issue 14 items 2-3, must-show 1's browser test): browser
// mode runs with a throwaway HOME holding other MCP apps' config files whose servers are real
// runnable ones; the first-run checklist leads to the Import view, which previews each server
// (its literal token already a keychain reference, the value nowhere on the page); the person
// imports them and sees them connect in the Servers view. Then a server, and all of them, are
// exported for another app and copied. axe checks both new panels.
// Needs the Secret Service (a moved token is stored in the keychain): gnome-keyring in the
// D-Bus session npm test starts (scripts/keyring-session.mjs).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { SERVER_SECRET_PREFIX } from '../../electron/host/stores/server-secrets.js';
import { KeychainSecretStore } from '../../electron/host/stores/secret-store.js';
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
import { EVERYTHING_SERVER, everythingSkipReason, keychainSkipReason } from '../helpers/e2e-app.js';
import { claudeDesktopFile, writeFakeHome, type HostFile } from '../helpers/fake-hosts.js';
import { nodeServer, SERVERS } from '../helpers/server-processes.js';
import { tempDir } from '../helpers/temp-dir.js';

const STEP = 30_000;
const CONNECT = 60_000;
const VIEWPORT = { width: 1400, height: 900 };
const TOKEN = `ghp_${randomBytes(12).toString('hex')}`;
const SERVICE = `MCP Desk e2e import ${randomBytes(6).toString('hex')}`;
const skipReason =
  chromiumSkipReason ??
  everythingSkipReason ??
  keychainSkipReason('a moved token is kept in the OS keychain');

/**
 * The other apps' files under the throwaway HOME, and the servers each holds (all real and
 * runnable): Claude Desktop's and Cursor's, read by their real importers.
 */
const HOSTS: { id: string; file: HostFile; servers: string[] }[] = [
  {
    id: 'claude-desktop',
    file: claudeDesktopFile({
      everything: { ...nodeServer(EVERYTHING_SERVER, ['stdio']), env: { GITHUB_TOKEN: TOKEN } },
      modern: nodeServer(SERVERS.modern),
    }),
    servers: ['everything', 'modern'],
  },
  {
    id: 'cursor',
    file: {
      path: '.cursor/mcp.json',
      text: JSON.stringify({ mcpServers: { pages: nodeServer(SERVERS.paged) } }),
    },
    servers: ['pages'],
  },
];
const SERVER_NAMES = HOSTS.flatMap((h) => h.servers);

let home = '';
let mode: BrowserMode | null = null;
let browser: Browser | null = null;
let page: Page | null = null;

before(async () => {
  if (skipReason) {
    console.log(`import-hosts e2e skipped: ${skipReason}`);
    return;
  }
  home = await tempDir();
  writeFakeHome(
    home,
    HOSTS.map((h) => h.file),
  );
  mode = await startBrowserMode({
    env: { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), MCP_DESK_KEYCHAIN_SERVICE: SERVICE },
  });
  browser = await launchChromium();
  // axe needs a page of an explicit context; the Copy test reads the clipboard.
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(mode.url).origin });
  page = await context.newPage();
  logPageErrors(page);
});

after(async () => {
  await browser?.close();
  await mode?.stop();
  if (!skipReason) {
    const store = new KeychainSecretStore({ service: SERVICE });
    for (const name of await store.names().catch(() => [])) await store.delete(name).catch(() => false);
  }
});

const evidence = (p: Page, name: string, steps: () => Promise<void>) =>
  withEvidence(p, `import-hosts-${name}`, steps, () => mode && `browser mode output:\n${mode.output()}`);

/** Everything the page holds as text: the serialised DOM plus every input's live value. */
function pageText(p: Page): Promise<string> {
  type Doc = {
    document: {
      documentElement: { outerHTML: string };
      querySelectorAll(s: string): ArrayLike<{ value: string }>;
    };
  };
  return p.evaluate(() => {
    const d = (globalThis as unknown as Doc).document;
    return (
      d.documentElement.outerHTML +
      Array.from(d.querySelectorAll('input, textarea'))
        .map((e) => e.value)
        .join('\n')
    );
  });
}

function readClipboard(p: Page): Promise<string> {
  type Nav = { navigator: { clipboard: { readText(): Promise<string> } } };
  return p.evaluate(() => (globalThis as unknown as Nav).navigator.clipboard.readText());
}

test('import from other apps: preview, pick, import, connect', { timeout: 180_000 }, async (t) => {
  const p = pageOrSkip(t, skipReason, page);
  if (!p || !mode) return;
  await evidence(p, 'import', async () => {
    // The first-run checklist's server step offers the import.
    await p.goto(mode!.url);
    await p.getByTestId('first-run-alt-server').click();
    await p.getByTestId('host-import').waitFor({ timeout: STEP });
    for (const h of HOSTS) await p.getByTestId(`import-host-${h.id}`).waitFor({ timeout: STEP });
    for (const name of SERVER_NAMES) {
      await p.getByTestId(`import-candidate-${name}`).waitFor();
      assert.equal(
        await p.getByTestId(`import-pick-${name}`).isChecked(),
        true,
        `${name} is picked at first`,
      );
    }
    const secrets = p.getByTestId('import-secrets-everything');
    assert.match(
      await secrets.innerText(),
      /env\.GITHUB_TOKEN moves to your keychain as everything\.GITHUB_TOKEN/,
    );
    assert.match(
      await p.getByTestId('import-candidate-everything').innerText(),
      /"GITHUB_TOKEN": "\$\{secret:everything\.GITHUB_TOKEN\}"/,
    );
    assert.ok(!(await pageText(p)).includes(TOKEN), 'the token never reaches the page');
    await assertAccessible(p, 'the Import from other apps view', '[data-testid="host-import"]');
    await saveScreenshot(p, 'import-hosts-01-preview');

    // Select all per host: off, then on again.
    for (const h of HOSTS) {
      await p.getByTestId(`import-all-${h.id}`).uncheck();
      for (const name of h.servers)
        assert.equal(await p.getByTestId(`import-pick-${name}`).isChecked(), false);
      await p.getByTestId(`import-all-${h.id}`).check();
    }
    await p.getByTestId('host-import-apply').click();
    await p.getByTestId('host-import-result').waitFor({ timeout: STEP });
    for (const name of SERVER_NAMES) await p.getByTestId(`imported-${name}`).waitFor();
    assert.match(await p.getByTestId('imported-everything').innerText(), /1 secret moved to your keychain/);
    // Each app by its name, never by its id (issue 24: "gemini-cli" instead of "Gemini CLI").
    assert.match(await p.getByTestId('imported-everything').innerText(), /from Claude Desktop/);
    assert.match(await p.getByTestId('imported-pages').innerText(), /from Cursor/);
    await saveScreenshot(p, 'import-hosts-02-result');

    // The way back to the chat (issue 24); the Servers view then shows its list again.
    await p.getByTestId('host-import-result').getByTestId('back-to-chat').click();
    await p.getByTestId('chat-view').waitFor({ state: 'visible' });
    assert.equal(await p.getByTestId('nav-chat').getAttribute('aria-current'), 'page');
    await p.getByTestId('nav-servers').click();
    assert.equal(await p.getByTestId('host-import').count(), 0, 'the finished import is closed');
    for (const name of SERVER_NAMES)
      await p
        .locator(`[data-testid="server-state-${name}"][data-state="connected"]`)
        .waitFor({ timeout: CONNECT });
    await saveScreenshot(p, 'import-hosts-03-connected');

    const saved = readFileSync(mode!.configPath, 'utf8');
    assert.ok(!saved.includes(TOKEN), 'mcp-servers.json holds no literal token');
    assert.match(saved, /\$\{secret:everything\.GITHUB_TOKEN\}/);
    const stored = await new KeychainSecretStore({ service: SERVICE }).get(
      `${SERVER_SECRET_PREFIX}everything.GITHUB_TOKEN`,
    );
    assert.equal(stored, TOKEN, 'the token is in the keychain');
    assert.ok(!(await pageText(p)).includes(TOKEN));
    assert.ok(!mode!.output().includes(TOKEN), 'browser mode never printed the token');
    assert.equal(
      readFileSync(join(home, HOSTS[0].file.path), 'utf8'),
      HOSTS[0].file.text,
      'source untouched',
    );
  });
});

test('export a server, and all of them, and copy the snippet', { timeout: 60_000 }, async (t) => {
  const p = pageOrSkip(t, skipReason, page);
  if (!p || !mode) return;
  await evidence(p, 'export', async () => {
    await p.getByTestId('server-row-everything').click();
    await p.getByTestId('export-server-everything').click();
    await p.getByTestId('export-text').waitFor({ timeout: STEP });
    await assertAccessible(p, 'the export panel', '[data-testid="export-panel"]');
    await p.getByTestId('export-copy').click();
    await p.getByTestId('export-copy').filter({ hasText: 'Copied' }).waitFor({ timeout: STEP });
    const copied = JSON.parse(await readClipboard(p)) as {
      mcpServers: Record<string, { env?: Record<string, string> }>;
    };
    assert.deepEqual(Object.keys(copied.mcpServers), ['everything']);
    assert.equal(copied.mcpServers.everything?.env?.GITHUB_TOKEN, '${secret:everything.GITHUB_TOKEN}');
    await saveScreenshot(p, 'import-hosts-04-export');

    await p.getByTestId('export-all').click();
    await p.getByRole('heading', { name: 'Export all servers' }).waitFor({ timeout: STEP });
    await p.getByTestId('export-text').filter({ hasText: '"modern"' }).waitFor({ timeout: STEP });
    await p.getByTestId('export-copy').click();
    await p.getByTestId('export-copy').filter({ hasText: 'Copied' }).waitFor({ timeout: STEP });
    const all = JSON.parse(await readClipboard(p)) as { mcpServers: Record<string, unknown> };
    assert.deepEqual(Object.keys(all.mcpServers).sort(), [...SERVER_NAMES].sort());
  });
});

test(
  'looking again after an import offers none of the imported servers again',
  { timeout: 60_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, page);
    if (!p || !mode) return;
    await evidence(p, 'already-here', async () => {
      await p.getByTestId('nav-servers').click();
      await p.getByTestId('import-hosts').click();
      await p.getByTestId('host-import').waitFor({ timeout: STEP });
      for (const name of SERVER_NAMES) {
        // Shown as already here under its name, with nothing to pick: no renamed copy is offered.
        const row = p.getByTestId(`import-already-${name}`);
        await row.waitFor({ timeout: STEP });
        assert.match(await row.innerText(), new RegExp(`already here as .${name}.`));
        assert.equal(await p.getByTestId(`import-pick-${name}`).count(), 0, `${name} is offered again`);
      }
      assert.equal(
        await p.locator('[data-testid^="import-candidate-"]').count(),
        0,
        'no candidate is offered',
      );
      assert.equal(await p.getByTestId('host-import-apply').isDisabled(), true, 'nothing to import');
      await saveScreenshot(p, 'import-hosts-05-already-here');
      await p.getByTestId('host-import-close').click();
      await p.getByTestId('server-row-everything').waitFor();
    });
  },
);
