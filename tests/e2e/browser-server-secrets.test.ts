// `${secret:NAME}` through the real UI: a remote server (header) and a stdio server (env)
// reference a secret that is not set; the details say so, the person types the value into
// the write-only field of the server form, both servers restart and connect, the remote one
// receives the header, and afterwards the value is nowhere: not in the page's DOM or its
// inputs, not in browser mode's stdout/stderr, not in any file of the data folder.
// Needs the Secret Service (gnome-keyring in the D-Bus session npm test starts: scripts/keyring-session.mjs).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { SERVER_SECRET_PREFIX } from '../../electron/host/stores/server-secrets.js';
import { KeychainSecretStore } from '../../electron/host/stores/secret-store.js';
import { chromiumSkipReason, pageOrSkip, saveScreenshot, withEvidence } from '../helpers/chromium.js';
import {
  CleanupStack,
  startEverythingHttp,
  startHeaderRecorder,
  waitFor,
  type HeaderRecorder,
} from '../helpers/host-harness.js';
import {
  EVERYTHING_SERVER as EVERYTHING,
  everythingSkipReason,
  keychainSkipReason,
  pageText,
} from '../helpers/e2e-app.js';
import { startE2eSession, type E2eSession } from '../helpers/e2e-session.js';

const CONNECT_TIMEOUT_MS = 60_000;
const NAME = 'e2e-key';
const VALUE = `e2e-secret-${randomBytes(8).toString('hex')}`;
const SERVICE = `MCP Desk e2e ${randomBytes(6).toString('hex')}`;

const skipReason =
  chromiumSkipReason ?? everythingSkipReason ?? keychainSkipReason('server secrets live in the OS keychain');

const stack = new CleanupStack();
let recorder: HeaderRecorder;
let session: E2eSession | null = null;

before(async () => {
  if (skipReason) return;
  const http = await startEverythingHttp(stack, 'streamableHttp');
  recorder = await startHeaderRecorder(stack, http.port);
  // Its keychain entries stay apart from a person's real ones.
  session = await startE2eSession({
    keychainService: SERVICE,
    viewport: { width: 1400, height: 900 },
    config: {
      mcpServers: {
        remote: { url: `${recorder.origin}/mcp`, headers: { 'X-Api-Key': `\${secret:${NAME}}` } },
        local: {
          command: process.execPath,
          args: [EVERYTHING, 'stdio'],
          env: { DEMO_TOKEN: `\${secret:${NAME}}` },
        },
      },
    },
  });
});

after(async () => {
  await session?.stop();
  await stack.run();
  if (!skipReason)
    await new KeychainSecretStore({ service: SERVICE })
      .delete(SERVER_SECRET_PREFIX + NAME)
      .catch(() => false);
});

function filesUnder(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out.set(join(e.parentPath, e.name), readFileSync(join(e.parentPath, e.name), 'utf8'));
  }
  return out;
}

test(
  'a secret typed into the write-only field reaches the servers and nothing else',
  { timeout: 180_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, session?.page ?? null);
    const mode = session?.mode;
    if (!p || !mode) return;
    const output = () => `browser mode output:\n${mode.output()}`;
    await withEvidence(
      p,
      'server-secret',
      async () => {
        await p.goto(mode.url);
        await p.getByTestId('nav-servers').click();
        await p
          .locator('[data-testid="server-state-remote"][data-state="failed"]')
          .waitFor({ timeout: CONNECT_TIMEOUT_MS });
        assert.match(
          (await p.getByTestId('server-error-remote').textContent()) ?? '',
          new RegExp(`\\$\\{secret:${NAME}\\}`),
        );
        await p.getByTestId('server-row-remote').click();
        await p.locator(`[data-testid="secrets-summary-${NAME}"][data-set="false"]`).waitFor();

        await p.getByTestId('edit-server-remote').click();
        const row = p.locator(`[data-testid="secret-row-${NAME}"]`);
        await row.waitFor();
        assert.equal(await p.getByTestId(`secret-state-${NAME}`).textContent(), 'not set');
        const input = p.getByTestId(`secret-input-${NAME}`);
        assert.equal(await input.getAttribute('type'), 'password');
        await input.fill(VALUE);
        await p.getByTestId(`secret-save-${NAME}`).click();
        await p.locator(`[data-testid="secret-row-${NAME}"][data-set="true"]`).waitFor();
        assert.equal(await p.getByTestId(`secret-state-${NAME}`).textContent(), 'set');
        assert.equal(await input.inputValue(), '', 'the field is cleared after saving');
        await saveScreenshot(p, 'server-secret-set');

        // Both users restarted with the value.
        for (const id of ['remote', 'local'])
          await p
            .locator(`[data-testid="server-state-${id}"][data-state="connected"]`)
            .waitFor({ timeout: CONNECT_TIMEOUT_MS });
        await waitFor('a request carrying the header', () =>
          recorder.requests.some((r) => r.headers['x-api-key'] === VALUE) ? true : undefined,
        );

        // Look at everything the UI can show about them, then search the page for the value.
        await p.getByTestId('server-form-cancel').click();
        for (const id of ['remote', 'local']) {
          await p.getByTestId(`server-row-${id}`).click();
          await p.locator(`[data-testid="secrets-summary-${NAME}"][data-set="true"]`).waitFor();
          for (const tab of ['log', 'trace', 'info']) {
            await p.getByTestId(`tab-${tab}`).click();
            assert.ok(!(await pageText(p)).includes(VALUE), `the page (${id}, ${tab}) shows the secret`);
          }
        }
        assert.ok(!(await pageText(p)).includes(VALUE), 'the DOM holds the secret');
        assert.ok(!mode.output().includes(VALUE), 'browser mode printed the secret');
        for (const [path, text] of filesUnder(dirname(mode.configPath)))
          assert.ok(!text.includes(VALUE), `${path} holds the secret`);
      },
      output,
    );
  },
);
