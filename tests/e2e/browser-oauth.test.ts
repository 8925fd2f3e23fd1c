// Sign-in to an OAuth-protected remote server through the real UI, with real parts: browser
// mode, the real renderer in Chromium, a real authorization server (oidc-provider) and the
// real OS keychain. The "system browser" is a second Playwright page: MCP_DESK_OPEN_COMMAND
// points browser mode's opener at a script that writes the URL to a file this test reads.
// Needs the Secret Service (gnome-keyring in the D-Bus session npm test starts: scripts/keyring-session.mjs).
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { KeychainSecretStore } from '../../electron/host/stores/secret-store.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-server.js';
import {
  chromiumSkipReason,
  launchChromium,
  pageOrSkip,
  saveScreenshot,
  withEvidence as keepEvidence,
} from '../helpers/chromium.js';
import { startBrowserMode, type BrowserMode } from '../helpers/browser-mode.js';
import { KEYCHAIN_HOWTO } from '../helpers/keychain-check.js';

const SERVICE = `mcp-desk-e2e-oauth-${process.pid}`;
const ID = 'protected';

const skipReason =
  chromiumSkipReason ??
  (!process.env.DBUS_SESSION_BUS_ADDRESS
    ? `no Secret Service session (DBUS_SESSION_BUS_ADDRESS unset): tokens live in the OS keychain; ${KEYCHAIN_HOWTO}`
    : null);

let as: OAuthFixture | null = null;
let mode: BrowserMode | null = null;
let browser: Browser | null = null;
let app: Page | null = null;
let asContext: BrowserContext | null = null;
let dir = '';
let configPath = '';
const openedFile = () => join(dir, 'opened.txt');
const oauthVault = () => new KeychainSecretStore({ service: `${SERVICE} OAuth` });

before(async () => {
  if (skipReason) {
    console.log(`browser oauth e2e skipped: ${skipReason}`);
    return;
  }
  dir = mkdtempSync(join(tmpdir(), 'mcp-desk-e2e-oauth-'));
  const opener = join(dir, 'open.sh');
  writeFileSync(opener, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${openedFile()}'\n`);
  chmodSync(opener, 0o755);
  process.env.MCP_DESK_OPEN_COMMAND = opener;
  process.env.MCP_DESK_KEYCHAIN_SERVICE = SERVICE;
  // The fixture AS does dynamic registration; a CIMD URL would need a public https document.
  process.env.MCP_DESK_CLIENT_METADATA_URL = '';
  as = await startOAuthFixture();
  configPath = join(dir, 'mcp-servers.json');
  writeFileSync(configPath, JSON.stringify({ mcpServers: {} }));
  mode = await startBrowserMode({ configPath });
  browser = await launchChromium();
  app = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  asContext = await browser.newContext();
});

after(async () => {
  await browser?.close();
  await mode?.stop();
  await as?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function withEvidence(p: Page, name: string, steps: () => Promise<void>): Promise<void> {
  return keepEvidence(p, `oauth-${name}`, steps, () => mode && `browser mode output:\n${mode.output()}`);
}

async function tokenEntries(): Promise<string[]> {
  return (await oauthVault().names()).filter((n) => n.endsWith('.tokens'));
}

/** The URL the opener was last handed, once there is one more than `count`. */
async function nextOpened(count: number): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const lines = existsSync(openedFile())
      ? readFileSync(openedFile(), 'utf8').split('\n').filter(Boolean)
      : [];
    if (lines.length > count) return lines[lines.length - 1];
    if (Date.now() > deadline) throw new Error('the app never opened the sign-in page');
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('add a protected server, sign in through the browser, tools appear', { timeout: 120_000 }, async (t) => {
  const p = pageOrSkip(t, skipReason, mode ? app : null);
  if (!p) return;
  await withEvidence(p, 'sign-in', async () => {
    await p.goto(mode!.url);
    await p.getByTestId('nav-servers').click();
    await p.getByTestId('add-server').click();
    await p.getByTestId('server-name').fill(ID);
    await p.getByTestId('server-transport').selectOption('http');
    await p.getByTestId('server-url').fill(as!.mcpUrl);
    await p.getByTestId('server-form-submit').click();
    await p
      .locator(`[data-testid="sign-in-bar-${ID}"][data-auth="sign-in-needed"]`)
      .waitFor({ timeout: 30_000 });
    assert.match((await p.getByTestId(`sign-in-bar-${ID}`).textContent()) ?? '', /Sign-in needed/);

    await p.getByTestId(`sign-in-${ID}`).click();
    const authUrl = await nextOpened(0);
    await p.locator(`[data-testid="sign-in-bar-${ID}"][data-auth="signing-in"]`).waitFor({ timeout: 10_000 });
    await saveScreenshot(p, 'oauth-01-signing-in');

    // The person, in their browser: oidc-provider's login, then its consent.
    const asPage = await asContext!.newPage();
    await asPage.goto(authUrl);
    await asPage.locator('input[name="login"]').fill('alice');
    await asPage.locator('input[name="password"]').fill('any password');
    await asPage.locator('button[type="submit"]').click();
    await asPage.locator('button[type="submit"]', { hasText: 'Continue' }).click();
    await asPage.getByText('You can close this tab').waitFor({ timeout: 30_000 });
    await asPage.close();

    await p
      .locator(`[data-testid="server-state-${ID}"][data-state="connected"]`)
      .waitFor({ timeout: 30_000 });
    await p.locator(`[data-testid="sign-in-bar-${ID}"][data-auth="signed-in"]`).waitFor({ timeout: 10_000 });
    assert.match((await p.getByTestId(`server-counts-${ID}`).textContent()) ?? '', /2 tools/);
    assert.equal((await tokenEntries()).length, 1, 'the tokens are in the OS keychain');
    // Nothing the host printed (stdout, stderr) holds a token, nor does the page's own text.
    const [key] = await tokenEntries();
    const stored = JSON.parse((await oauthVault().get(key)) ?? '{}') as {
      access_token?: string;
      refresh_token?: string;
    };
    assert.ok(stored.access_token, 'an access token was stored');
    const pageText = await p.content();
    for (const secret of [stored.access_token, stored.refresh_token, ...as!.seenTokens]) {
      if (!secret) continue;
      assert.ok(!mode!.output().includes(secret), 'a token reached the host output');
      assert.ok(!pageText.includes(secret), 'a token reached the renderer');
    }
    await saveScreenshot(p, 'oauth-02-signed-in');
  });
});

test(
  'after restarting browser mode the server is still signed in (token from the keychain)',
  { timeout: 90_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, mode ? app : null);
    if (!p) return;
    await withEvidence(p, 'restart', async () => {
      const opened = existsSync(openedFile()) ? readFileSync(openedFile(), 'utf8') : '';
      await mode!.stop();
      mode = await startBrowserMode({ configPath });
      await p.goto(mode.url);
      await p.getByTestId('nav-servers').click();
      await p
        .locator(`[data-testid="server-state-${ID}"][data-state="connected"]`)
        .waitFor({ timeout: 30_000 });
      await p
        .locator(`[data-testid="sign-in-bar-${ID}"][data-auth="signed-in"]`)
        .waitFor({ timeout: 10_000 });
      assert.equal(
        existsSync(openedFile()) ? readFileSync(openedFile(), 'utf8') : '',
        opened,
        'no browser was opened',
      );
    });
  },
);

test(
  'sign out: the keychain no longer holds the token, sign-in needed again',
  { timeout: 60_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, mode ? app : null);
    if (!p) return;
    await withEvidence(p, 'sign-out', async () => {
      await p.getByTestId(`sign-out-${ID}`).click();
      await p
        .locator(`[data-testid="sign-in-bar-${ID}"][data-auth="sign-in-needed"]`)
        .waitFor({ timeout: 30_000 });
      assert.deepEqual(await tokenEntries(), []);
      await saveScreenshot(p, 'oauth-03-signed-out');
      // Leave nothing behind in the test keychain (client registrations, discovery).
      const vault = oauthVault();
      for (const name of await vault.names()) await vault.delete(name);
    });
  },
);
