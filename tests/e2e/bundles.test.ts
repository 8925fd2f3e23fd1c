// MCP Bundles through the real UI (issue 14, must-show 3): a .mcpb built in the test installs via
// Servers › Install bundle… (browser mode: the file input, its bytes over the bridge), the
// dialog shows what the bundle is and asks for its user_config (a sensitive field included),
// the server connects and lists its tools, updates to 2.0 through the details' Update…, and
// uninstalls cleanly (entry, files, keychain secret). A bundle with `../` entries and one with a
// bad manifest show their reason and write nothing. axe checks the dialog.
// Needs the Secret Service (gnome-keyring in the D-Bus session npm test starts: scripts/keyring-session.mjs).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { type Page } from 'playwright-core';
import { KeychainSecretStore } from '../../electron/host/stores/secret-store.js';
import { assertAccessible } from '../helpers/axe.js';
import { chromiumSkipReason, pageOrSkip, saveScreenshot } from '../helpers/chromium.js';
import { keychainSkipReason } from '../helpers/e2e-app.js';
import { startE2eSession, type E2eSession } from '../helpers/e2e-session.js';
import { CleanupStack, waitFor } from '../helpers/host-harness.js';
import { buildFixtureBundle, buildHostileBundles, FIXTURE_BUNDLE } from '../helpers/mcpb-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';

const CONNECT_TIMEOUT_MS = 60_000;
const TOKEN = `e2e-bundle-token-${randomBytes(8).toString('hex')}`;
const SERVICE = `MCP Desk e2e bundles ${randomBytes(6).toString('hex')}`;
const SECRET = 'server.mcpb.desk-fixture.api_token';

const skipReason =
  chromiumSkipReason ?? keychainSkipReason("a bundle's sensitive field goes to the OS keychain");

const stack = new CleanupStack();
const store = new KeychainSecretStore({ service: SERVICE });
let session: E2eSession | null = null;
let files = '';

before(async () => {
  if (skipReason) return;
  files = await tempDir(stack);
  session = await startE2eSession({
    config: { mcpServers: {} },
    viewport: { width: 1400, height: 900 },
    keychainService: SERVICE,
  });
});

after(async () => {
  await session?.stop();
  await stack.run();
  if (!skipReason) await store.delete(SECRET).catch(() => false);
});

/** Every file under `dir` (relative) → text. */
function filesUnder(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile())
      out.set(join(e.parentPath, e.name).slice(dir.length), readFileSync(join(e.parentPath, e.name), 'utf8'));
  return out;
}

async function pick(p: Page, testId: string, file: string): Promise<void> {
  await p.getByTestId(`${testId}-file`).setInputFiles(file);
  await p.getByTestId('bundle-dialog').waitFor();
}

test(
  'install, configure, connect, update and uninstall a bundle in the UI',
  { timeout: 240_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, session?.page ?? null);
    const mode = session?.mode;
    if (!p || !mode) return;
    const dataDir = join(dirname(mode.configPath), 'data');
    try {
      await p.goto(mode.url);
      await p.getByTestId('nav-servers').click();

      // Hostile bundles: the reason is shown, nothing is written.
      const before = filesUnder(dataDir);
      const hostile = await buildHostileBundles(files);
      for (const { file, reason } of hostile.filter((h) => /traversal|bad-manifest/.test(h.file))) {
        await pick(p, 'install-bundle', file);
        const error = p.getByTestId('bundle-error');
        await error.waitFor();
        assert.match((await error.textContent()) ?? '', reason);
        await saveScreenshot(p, `bundles-refused-${/traversal/.test(file) ? 'traversal' : 'manifest'}`);
        await p.getByTestId('bundle-cancel').click();
        await p.getByTestId('bundle-error').waitFor({ state: 'detached' });
      }
      assert.deepEqual(filesUnder(dataDir), before, 'refused bundles write nothing');

      // Install 1.0 through the file input.
      await pick(p, 'install-bundle', await buildFixtureBundle(files, '1.0.0'));
      await p.getByTestId('bundle-summary').waitFor();
      assert.match((await p.getByTestId('bundle-dialog').textContent()) ?? '', /Install Desk Fixture/);
      assert.equal(await p.getByTestId('bundle-version').textContent(), '1.0.0');
      assert.match((await p.getByTestId('bundle-signature').textContent()) ?? '', /Not signed/);
      assert.match((await p.getByTestId('bundle-tools').textContent()) ?? '', /show-config.*echo/s);
      assert.equal(await p.getByTestId('bundle-field-api_token').getAttribute('type'), 'password');
      assert.equal(await p.getByTestId('bundle-field-limit').inputValue(), '5');
      await assertAccessible(p, 'the bundle install dialog', '[data-testid="bundle-dialog"]');
      await saveScreenshot(p, 'bundles-install-dialog');

      // Required fields and ranges are checked before anything is sent.
      await p.getByTestId('bundle-field-limit').fill('50');
      await p.getByTestId('bundle-install').click();
      assert.match((await p.getByTestId('bundle-field-greeting-error').textContent()) ?? '', /required/);
      assert.match((await p.getByTestId('bundle-field-limit-error').textContent()) ?? '', /at most 10/);
      await p.getByTestId('bundle-field-limit').fill('7');
      await p.getByTestId('bundle-field-greeting').fill('hello from the UI');
      await p.getByTestId('bundle-field-api_token').fill(TOKEN);
      await p.getByTestId('bundle-install').click();
      await p.getByTestId('bundle-summary').waitFor({ state: 'detached' });

      await p
        .locator(`[data-testid="server-state-${FIXTURE_BUNDLE}"][data-state="connected"]`)
        .waitFor({ timeout: CONNECT_TIMEOUT_MS });
      assert.match((await p.getByTestId(`server-counts-${FIXTURE_BUNDLE}`).textContent()) ?? '', /2 tools/);
      assert.equal(await p.getByTestId(`server-bundle-${FIXTURE_BUNDLE}`).textContent(), 'bundle 1.0.0');
      assert.equal(await store.get(SECRET), TOKEN);
      const config = readFileSync(mode.configPath, 'utf8');
      assert.ok(!config.includes(TOKEN), 'the token is not in mcp-servers.json');
      assert.match(config, /"GREETING": "hello from the UI"/);
      assert.match(config, /"LIMIT": "7"/);
      await saveScreenshot(p, 'bundles-installed');

      // Update to 2.0 from the details: the form is prefilled, the token kept.
      await p.getByTestId(`server-row-${FIXTURE_BUNDLE}`).click();
      await p.getByTestId('bundle-installed-version').waitFor();
      await pick(p, 'bundle-update', await buildFixtureBundle(files, '2.0.0'));
      await p.getByTestId('bundle-summary').waitFor();
      assert.equal(await p.getByTestId('bundle-version').textContent(), '1.0.0 → 2.0.0');
      assert.equal(await p.getByTestId('bundle-field-greeting').inputValue(), 'hello from the UI');
      assert.equal(await p.getByTestId('bundle-field-api_token').inputValue(), '');
      assert.match((await p.getByTestId('bundle-install').textContent()) ?? '', /Update/);
      await saveScreenshot(p, 'bundles-update-dialog');
      await p.getByTestId('bundle-install').click();
      await p.getByTestId('bundle-summary').waitFor({ state: 'detached' });
      await p
        .locator(`[data-testid="server-counts-${FIXTURE_BUNDLE}"]`, { hasText: '3 tools' })
        .waitFor({ timeout: CONNECT_TIMEOUT_MS });
      assert.equal(await p.getByTestId(`server-bundle-${FIXTURE_BUNDLE}`).textContent(), 'bundle 2.0.0');
      assert.equal(await store.get(SECRET), TOKEN);

      // Uninstall: entry, files and the keychain secret go.
      await p.getByTestId('bundle-uninstall').click();
      await p.getByTestId('bundle-uninstall-confirm').click();
      await p.getByTestId(`server-row-${FIXTURE_BUNDLE}`).waitFor({ state: 'detached' });
      assert.doesNotMatch(readFileSync(mode.configPath, 'utf8'), /desk-fixture/);
      // The row goes with the entry; the files and the secret follow a moment later.
      await waitFor('the keychain secret to be deleted', async () =>
        (await store.get(SECRET)) === undefined ? true : undefined,
      );
      const left = [...filesUnder(dataDir).keys()].filter((f) => f.includes('bundles'));
      assert.deepEqual(left, []);
      for (const [where, text] of filesUnder(dataDir))
        assert.ok(!text.includes(TOKEN), `${where} holds the token`);
      assert.ok(!mode.output().includes(TOKEN), 'browser mode printed the token');
    } catch (error) {
      await saveScreenshot(p, 'bundles-failure').catch(() => undefined);
      throw new Error(
        `${(error as Error).message}\n--- browser mode output ---\n${mode.output().slice(-3000)}`,
        {
          cause: error,
        },
      );
    }
  },
);
