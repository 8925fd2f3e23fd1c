// What several browser e2e files share beyond Chromium itself: server-everything's path and
// config entry, the reasons a machine cannot run a flow, the page's text, reading a download, opening a tool, and storing and
// removing the Gemini key through Settings.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Download, Page } from 'playwright-core';
import { repoRoot } from './browser-mode.js';
import { chromiumSkipReason } from './chromium.js';
import { KEYCHAIN_HOWTO } from './keychain-check.js';

/** The installed reference server the e2e flows connect to over stdio. */
export const EVERYTHING_SERVER = join(
  repoRoot,
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);

/** server-everything over stdio, as a config's server entry. */
export const EVERYTHING_STDIO = { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] };

/** How the host names server-everything's echo for the model (electron/host/chat/tool-names.ts). */
export const ECHO_FOR_MODEL = 'everything__echo';

/** Why server-everything cannot run here, or null. */
export const everythingSkipReason: string | null = existsSync(EVERYTHING_SERVER)
  ? null
  : `${EVERYTHING_SERVER} not found (npm install)`;

/**
 * Why a flow that keeps `what` in the OS keychain cannot run here (Linux without a Secret
 * Service session), or null.
 */
export function keychainSkipReason(what: string): string | null {
  return process.platform === 'linux' && !process.env.DBUS_SESSION_BUS_ADDRESS
    ? `no Secret Service session (DBUS_SESSION_BUS_ADDRESS unset): ${what}; ${KEYCHAIN_HOWTO}`
    : null;
}

/** Why a flow whose model key is kept in the OS keychain cannot run here, or null. */
export const modelKeySkipReason = keychainSkipReason('the API key is kept in the OS keychain');

/** Why a chat flow (Chromium, server-everything, the model key in the keychain) cannot run here. */
export const chatSkipReason = chromiumSkipReason ?? everythingSkipReason ?? modelKeySkipReason;

/** Everything the page holds as text: the serialised DOM plus every input's live value. */
export async function pageText(p: Page): Promise<string> {
  // A string, since this file compiles without the DOM library.
  const values = await p.evaluate<string>(
    `[...document.querySelectorAll('input, textarea')].map((e) => e.value).join('\\n')`,
  );
  return `${await p.content()}\n${values}`;
}

/** The text of a finished download (streamed: `download.path()` is not there on a shared browser). */
export async function readDownload(download: Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Removes the stored Gemini key through Settings (the Chat view must be showing). */
export async function removeStoredKey(p: Page): Promise<void> {
  if (!(await p.getByTestId('settings-panel').isVisible())) await p.getByTestId('settings-open').click();
  const remove = p.getByTestId('api-key-remove');
  if (await remove.isVisible()) {
    await remove.click();
    await p.locator('[data-testid="api-key-status"][data-set="false"]').waitFor({ timeout: 5_000 });
  }
}

/** Open a tool of server-everything in the Tools view; false when the server does not offer it. */
export async function openEverythingTool(p: Page, name: string): Promise<boolean> {
  await p.getByTestId('nav-tools').click();
  // The elicitation tool is always there once the catalog has loaded: wait for it first, so a
  // missing tool means "not offered", not "not loaded yet".
  await p.getByTestId('tool-item-everything-trigger-elicitation-request').waitFor({ timeout: 30_000 });
  const item = p.getByTestId(`tool-item-everything-${name}`);
  if ((await item.count()) === 0) return false;
  await item.click();
  return true;
}

/**
 * Stores `apiKey` through Chat's Settings, refusing to overwrite a key already there; `onSaved`
 * runs once Save was pressed, so the caller knows to remove the key again, and `whileOpen` once
 * the key is stored, before the panel closes (to check what the panel shows then).
 */
export async function saveKeyInSettings(
  p: Page,
  apiKey: string,
  onSaved: () => void,
  whileOpen?: () => Promise<void>,
): Promise<void> {
  await p.getByTestId('nav-chat').click();
  await p.getByTestId('settings-open').click();
  await p.getByTestId('settings-panel').waitFor();
  const status = p.getByTestId('api-key-status');
  await status.filter({ hasNotText: 'Checking' }).waitFor();
  if ((await status.getAttribute('data-set')) === 'true') {
    throw new Error(
      'a Gemini key is already stored under the test keychain service; refusing to overwrite it',
    );
  }
  await p.getByTestId('api-key-input').fill(apiKey);
  await p.getByTestId('api-key-save').click();
  onSaved();
  await p.locator('[data-testid="api-key-status"][data-set="true"]').waitFor({ timeout: 30_000 });
  await whileOpen?.();
  await p.getByTestId('settings-close').click();
}
