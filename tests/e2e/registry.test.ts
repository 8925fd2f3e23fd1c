// The Registry view and install links through the real UI (issue 14 items 5 and 6): browse the
// fake registry (search, Load more), install the recorded remote entry through the preview with
// its secret header typed into a password field, and see it connect (the header really arrives);
// then open `/?install=mcp-desk://install?…` and confirm it, and that server connects too. The
// secret is nowhere afterwards: not in the DOM, the output or the data folder. axe checks both.
// Needs the Secret Service (gnome-keyring in the D-Bus session npm test starts: scripts/keyring-session.mjs).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { SERVER_SECRET_PREFIX } from '../../electron/host/stores/server-secrets.js';
import { KeychainSecretStore } from '../../electron/host/stores/secret-store.js';
import { startFakeRegistry } from '../fixtures/fake-registry.mjs';
import { assertAccessible } from '../helpers/axe.js';
import { chromiumSkipReason, pageOrSkip, saveScreenshot, withEvidence } from '../helpers/chromium.js';
import { keychainSkipReason, pageText } from '../helpers/e2e-app.js';
import { startE2eSession, type E2eSession } from '../helpers/e2e-session.js';
import {
  CleanupStack,
  SERVERS,
  startHeaderRecorder,
  startModernHttp,
  waitFor,
  type HeaderRecorder,
} from '../helpers/host-harness.js';
import { recorded } from '../helpers/registry-fixtures.js';

const CONNECT_TIMEOUT_MS = 60_000;
const TOKEN = `Bearer e2e-registry-${randomBytes(8).toString('hex')}`;
const SERVICE = `MCP Desk e2e registry ${randomBytes(6).toString('hex')}`;

const skipReason = chromiumSkipReason ?? keychainSkipReason('the header secret goes to the OS keychain');

const stack = new CleanupStack();
let recorder: HeaderRecorder;
let session: E2eSession | null = null;

before(async () => {
  if (skipReason) return;
  const remote = await recorded('remote-weather.server.json');
  // Recorded as https://{host}/mcp; our fixture speaks plain http on 127.0.0.1.
  const [r0] = remote.remotes as Record<string, unknown>[];
  Object.assign(r0 ?? {}, { url: 'http://{host}/mcp' });
  const fillers = Array.from({ length: 25 }, (_, i) => ({
    name: `io.example/filler-${String(i).padStart(2, '0')}`,
    description: `Filler entry ${i}`,
    version: '0.0.1',
    packages: [
      { registryType: 'npm', identifier: `filler-${i}`, version: '0.0.1', transport: { type: 'stdio' } },
    ],
  }));
  const fake = await startFakeRegistry({
    servers: [remote, await recorded('context7.server.json'), ...fillers],
  });
  stack.defer(() => fake.close());
  const http = await startModernHttp(stack);
  recorder = await startHeaderRecorder(stack, http.port);
  // Browser mode inherits this: the fake registry; its keychain entries stay apart from real ones.
  process.env.MCP_DESK_REGISTRY_URL = fake.url;
  session = await startE2eSession({
    config: { mcpServers: {} },
    viewport: { width: 1400, height: 900 },
    keychainService: SERVICE,
  });
});

after(async () => {
  await session?.stop();
  await stack.run();
  if (!skipReason)
    await new KeychainSecretStore({ service: SERVICE })
      .delete(`${SERVER_SECRET_PREFIX}remote-weather.Authorization`)
      .catch(() => false);
});

test(
  'browse, install the remote entry with a secret header, open an install link',
  { timeout: 180_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, session?.page ?? null);
    const mode = session?.mode;
    if (!p || !mode) return;
    const output = () => `browser mode output:\n${mode.output()}`;
    const entries = p.locator('[data-testid^="registry-entry-"]');
    await withEvidence(
      p,
      'registry',
      async () => {
        await p.goto(mode.url);
        await p.getByTestId('nav-registry').click();
        await waitFor('the first page', async () => ((await entries.count()) === 20 ? true : undefined));
        await p.getByTestId('registry-more').click();
        await waitFor('the second page', async () => ((await entries.count()) === 27 ? true : undefined));
        assert.equal(await p.getByTestId('registry-more').count(), 0, 'no third page');
        await assertAccessible(p, 'the Registry view', '[data-testid="registry-view"]');
        await p.getByTestId('registry-search').fill('weather');
        await waitFor('the search', async () => ((await entries.count()) === 1 ? true : undefined));
        const row = p.getByTestId('registry-entry-io.github.user/remote-weather');
        assert.match((await row.textContent()) ?? '', /Remote Weather.*2\.1\.0.*remote streamable-http/s);

        await row.getByRole('button', { name: /Install/ }).click();
        const dialog = p.getByTestId('install-dialog');
        await dialog.waitFor();
        await p.getByTestId('install-input-url.host').fill(new URL(recorder.origin).host);
        const secret = p.getByTestId('install-input-header.Authorization');
        assert.equal(await secret.getAttribute('type'), 'password');
        await secret.fill(TOKEN);
        const entry = p.getByTestId('install-entry');
        await waitFor('the entry as it will be saved', async () =>
          ((await entry.textContent()) ?? '').includes('${secret:remote-weather.Authorization}')
            ? true
            : undefined,
        );
        assert.ok(
          !((await entry.textContent()) ?? '').includes(TOKEN),
          'the preview shows a reference, not the value',
        );
        await assertAccessible(p, 'the install preview', '[data-testid="install-dialog"]');
        await saveScreenshot(p, 'registry-install-preview');
        await p.getByTestId('install-confirm').click();
        await p
          .locator('[data-testid="install-done"][data-state="connected"]')
          .waitFor({ timeout: CONNECT_TIMEOUT_MS });
        assert.ok(
          recorder.requests.some((r) => r.headers.authorization === TOKEN),
          'the header reached the server',
        );
        await p.getByTestId('install-close').click();

        // An install link, as browser mode takes it: /?install=<link>.
        const config = Buffer.from(
          JSON.stringify({ command: process.execPath, args: [SERVERS.modern] }),
        ).toString('base64url');
        const url = new URL(mode.url);
        url.search = `?install=${encodeURIComponent(`mcp-desk://install?name=linked&config=${config}`)}`;
        await p.goto(url.toString());
        await dialog.waitFor();
        assert.match((await dialog.textContent()) ?? '', /from an install link/);
        assert.ok(
          !readFileSync(mode.configPath, 'utf8').includes('"linked"'),
          'nothing installed before confirming',
        );
        await p.getByTestId('install-confirm').click();
        await p
          .locator('[data-testid="install-done"][data-state="connected"]')
          .waitFor({ timeout: CONNECT_TIMEOUT_MS });
        const saved = JSON.parse(readFileSync(mode.configPath, 'utf8')) as {
          mcpServers: Record<string, unknown>;
        };
        assert.deepEqual(saved.mcpServers.linked, { command: process.execPath, args: [SERVERS.modern] });
        assert.deepEqual(saved.mcpServers['remote-weather'], {
          type: 'http',
          url: `${recorder.origin}/mcp`,
          headers: { Authorization: '${secret:remote-weather.Authorization}' },
        });

        assert.ok(!(await pageText(p)).includes(TOKEN), 'the DOM holds the secret');
        assert.ok(!mode.output().includes(TOKEN), 'browser mode printed the secret');
        for (const e of readdirSync(dirname(mode.configPath), { withFileTypes: true, recursive: true }))
          if (e.isFile())
            assert.ok(
              !readFileSync(join(e.parentPath, e.name), 'utf8').includes(TOKEN),
              `${e.name} holds the secret`,
            );
      },
      output,
    );
  },
);
