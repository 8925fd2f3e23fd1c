// Issue 29 through the real UI in Chromium, with browser mode on a machine that has no OS
// keychain (Linux, its D-Bus address pointing nowhere: tests/helpers/no-keychain.ts). Import
// JSON with two servers: the one without secrets is added and connects; the one with a literal
// key is added with `${secret:NAME}` unset, the import says why (the keychain's hint) and its
// details say "not set — no keychain here". Import from other apps (Claude Desktop's file in a
// throwaway HOME) does the same. The server form's "Store in keychain" puts the
// reference in place all the same and says it is not set. Settings says the API key cannot be
// kept. No literal reaches the config, the data folder or browser mode's output.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { chromiumSkipReason } from '../helpers/chromium.js';
import { EVERYTHING_STDIO, everythingSkipReason, pageText } from '../helpers/e2e-app.js';
import { useE2eSession } from '../helpers/e2e-session.js';
import { seriousViolations } from '../helpers/axe.js';
import { claudeDesktopFile, writeFakeHome } from '../helpers/fake-hosts.js';
import { filesHolding, NO_KEYCHAIN_HINT, noKeychainEnv, noKeychainSkip } from '../helpers/no-keychain.js';
import { nodeServer, SERVERS } from '../helpers/server-processes.js';

const CONNECT_TIMEOUT_MS = 60_000;
const LITERAL = `sk-e2enokeychain${randomBytes(10).toString('hex')}`;
const TYPED = `sk-e2etyped${randomBytes(10).toString('hex')}`;
const APP_TOKEN = `ghp_${randomBytes(12).toString('hex')}`;

// Another app's config in browser mode's HOME, for Import from other apps.
const home = mkdtempSync(join(tmpdir(), 'mcp-desk-e2e-nokeychain-home-'));
after(() => rmSync(home, { recursive: true, force: true }));
writeFakeHome(home, [
  claudeDesktopFile({
    'app-plain': nodeServer(SERVERS.paged),
    'app-keyed': { ...nodeServer(SERVERS.modern), env: { GITHUB_TOKEN: APP_TOKEN } },
  }),
]);

const file = useE2eSession({
  name: 'no-keychain',
  skipReason: chromiumSkipReason ?? everythingSkipReason ?? (noKeychainSkip || null),
  config: { mcpServers: {} },
  viewport: { width: 1300, height: 900 },
  env: { ...noKeychainEnv(), HOME: home, XDG_CONFIG_HOME: join(home, '.config') },
});

/** Every place a literal could have been written or printed: the config, the data folder, the output. */
async function assertNowhere(value: string): Promise<void> {
  const mode = file.mode;
  assert.ok(mode);
  assert.deepEqual(await filesHolding([dirname(mode.configPath)], value), []);
  assert.equal(mode.output().includes(value), false, 'browser mode printed the literal');
}

test('Import JSON: the server without secrets connects; the keyed one is added, its key unset', async (t) => {
  const { page: p, mode } = file;
  if (!p || !mode) return t.skip('setup skipped');
  await file.withEvidence(p, 'import', async () => {
    await p.goto(mode.url);
    await p.getByTestId('nav-servers').click();
    await p.getByTestId('import-json').click();
    const json = JSON.stringify({
      imported: EVERYTHING_STDIO,
      keyed: { ...EVERYTHING_STDIO, env: { OPENAI_API_KEY: LITERAL } },
    });
    await p.getByTestId('import-json-text').fill(json);
    await p.getByTestId('import-submit').click();
    await p.getByTestId('import-result').filter({ hasText: '2 added' }).waitFor();
    const note = p.getByTestId('import-not-stored-keyed');
    assert.match(
      (await note.textContent()) ?? '',
      /\$\{secret:keyed\.OPENAI_API_KEY\} is not set — no keychain here/,
    );
    assert.match((await note.textContent()) ?? '', NO_KEYCHAIN_HINT);
    assert.deepEqual(await seriousViolations(p, '[data-testid="import-panel"]'), []);
    await file.shot(p, 'import-result');
    // The literal leaves the page with the pasted text.
    await p.getByTestId('import-json-text').fill('');
    await p.getByTestId('import-close').click();

    await p
      .locator('[data-testid="server-state-imported"][data-state="connected"]')
      .waitFor({ timeout: CONNECT_TIMEOUT_MS });
    await p.getByTestId('server-row-keyed').click();
    const row = p.locator('[data-testid="secrets-summary-keyed.OPENAI_API_KEY"][data-set="false"]');
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /not set — no keychain here/);
    assert.match((await p.getByTestId('secrets-summary-no-keychain').textContent()) ?? '', NO_KEYCHAIN_HINT);
    await file.shot(p, 'details-not-set');

    const saved = JSON.parse(readFileSync(mode.configPath, 'utf8')) as {
      mcpServers: Record<string, { env?: Record<string, string> }>;
    };
    assert.deepEqual(saved.mcpServers.keyed?.env, { OPENAI_API_KEY: '${secret:keyed.OPENAI_API_KEY}' });
    await assertNowhere(LITERAL);
    assert.equal((await pageText(p)).includes(LITERAL), false, 'the page still holds the literal');
  });
});

test('Import from other apps: the same, and the keyed server says it has no keychain', async (t) => {
  const { page: p, mode } = file;
  if (!p || !mode) return t.skip('setup skipped');
  await file.withEvidence(p, 'host-import', async () => {
    await p.getByTestId('nav-servers').click();
    await p.getByTestId('import-hosts').click();
    for (const name of ['app-plain', 'app-keyed']) await p.getByTestId(`import-candidate-${name}`).waitFor();
    // The preview already says the key cannot be kept, before anything is imported.
    assert.match((await p.getByTestId('host-import-no-keychain').textContent()) ?? '', NO_KEYCHAIN_HINT);
    assert.match(
      (await p.getByTestId('import-secrets-app-keyed').textContent()) ?? '',
      /env\.GITHUB_TOKEN is taken out as app-keyed\.GITHUB_TOKEN, but not stored: not set — no keychain here/,
    );
    await p.getByTestId('host-import-apply').click();
    await p.getByTestId('host-import-result').waitFor();
    const keyed = p.getByTestId('imported-app-keyed');
    await keyed.waitFor();
    assert.doesNotMatch((await keyed.textContent()) ?? '', /moved to your keychain/);
    const note = p.getByTestId('not-stored-app-keyed');
    assert.match(
      (await note.textContent()) ?? '',
      /\$\{secret:app-keyed\.GITHUB_TOKEN\} is not set — no keychain here/,
    );
    assert.match((await note.textContent()) ?? '', NO_KEYCHAIN_HINT);
    assert.equal(
      await p.getByTestId('fill-secrets-app-keyed').count(),
      0,
      'no value to enter where none can be kept',
    );
    assert.deepEqual(await seriousViolations(p, '[data-testid="host-import"]'), []);
    await file.shot(p, 'host-import-result');
    await p.getByTestId('host-import-close').click();
    await p
      .locator('[data-testid="server-state-app-plain"][data-state="connected"]')
      .waitFor({ timeout: CONNECT_TIMEOUT_MS });
    await p.getByTestId('server-row-app-keyed').click();
    await p.locator('[data-testid="secrets-summary-app-keyed.GITHUB_TOKEN"][data-set="false"]').waitFor();
    assert.match(readFileSync(mode.configPath, 'utf8'), /\$\{secret:app-keyed\.GITHUB_TOKEN\}/);
    await assertNowhere(APP_TOKEN);
  });
});

test('the server form: "Store in keychain" leaves the reference unset and says why', async (t) => {
  const { page: p, mode } = file;
  if (!p || !mode) return t.skip('setup skipped');
  await file.withEvidence(p, 'form', async () => {
    await p.getByTestId('add-server').click();
    await p.getByTestId('server-name').fill('formed');
    await p.getByTestId('server-command').fill(EVERYTHING_STDIO.command);
    await p.getByTestId('server-args').fill(EVERYTHING_STDIO.args.join('\n'));
    await p.getByTestId('server-env').fill(`OPENAI_API_KEY=${TYPED}`);
    await p.getByTestId('secret-offer-store-OPENAI_API_KEY').click();
    const notice = p.getByTestId('secret-not-stored-notice');
    await notice.waitFor();
    assert.match(
      (await notice.textContent()) ?? '',
      /\$\{secret:formed\.OPENAI_API_KEY\} is not set — no keychain here/,
    );
    assert.match((await notice.textContent()) ?? '', NO_KEYCHAIN_HINT);
    assert.equal(
      await p.getByTestId('server-env').inputValue(),
      'OPENAI_API_KEY=${secret:formed.OPENAI_API_KEY}',
    );
    const state = p.getByTestId('secret-state-formed.OPENAI_API_KEY');
    await state.filter({ hasText: 'not set — no keychain here' }).waitFor();
    assert.match(
      (await p.getByTestId('secret-no-keychain-formed.OPENAI_API_KEY').textContent()) ?? '',
      NO_KEYCHAIN_HINT,
    );
    assert.deepEqual(await seriousViolations(p, '[data-testid="server-form"]'), []);
    await file.shot(p, 'form-not-stored');
    await p.getByTestId('server-form-submit').click();
    await p.getByTestId('server-row-formed').waitFor();
    assert.equal((await pageText(p)).includes(TYPED), false, 'the page still holds the typed key');
    await assertNowhere(TYPED);
  });
});

test('Settings says the API key cannot be kept here, with the hint', async (t) => {
  const { page: p } = file;
  if (!p) return t.skip('setup skipped');
  await file.withEvidence(p, 'settings', async () => {
    await p.getByTestId('nav-chat').click();
    await p.getByTestId('settings-open').click();
    await p.getByTestId('settings-panel').getByText('Keychain unavailable:').waitFor();
    assert.match((await p.getByTestId('settings-panel').textContent()) ?? '', NO_KEYCHAIN_HINT);
    await p.getByTestId('settings-close').click();
  });
});
