/**
 * `mcp-desk install 'mcp-desk://install?…'` (issue 14 item 6): the CLI prints the same preview
 * the app shows and installs only with --yes (no TTY here, so no prompt); a registry link reads
 * the registry named by MCP_DESK_REGISTRY_URL (our fake one) and its secret header goes to the
 * keychain (a throwaway service; npm test provides the keychain, scripts/keyring-session.mjs;
 * skipped without one outside CI). A broken link is refused with its reason and writes nothing.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { KeychainSecretStore } from '../../electron/host/stores/secret-store.js';
import { startFakeRegistry, type FakeRegistry } from '../fixtures/fake-registry.mjs';
import { runCli } from '../helpers/cli-runner.js';
import { CleanupStack, SERVERS, startModernHttp, tempDir } from '../helpers/host-harness.js';
import { recorded } from '../helpers/registry-fixtures.js';
import { checkKeychain, requireKeychain } from '../helpers/keychain-check.js';

const SERVICE = `mcp-desk-test-${randomBytes(6).toString('hex')}`;
const store = new KeychainSecretStore({ service: SERVICE });

const { problem, skip } = await checkKeychain(store);

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('mcp-desk install with an install link', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let fake: FakeRegistry;
  let httpHost: string;
  const configPath = () => join(dataDir, 'mcp-servers.json');

  before(async () => {
    dataDir = await tempDir(stack);
    const http = await startModernHttp(stack);
    httpHost = `127.0.0.1:${http.port}`;
    const remote = await recorded('remote-weather.server.json');
    const [r0] = remote.remotes as Record<string, unknown>[];
    Object.assign(r0 ?? {}, { url: 'http://{host}/mcp' });
    fake = await startFakeRegistry({ servers: [remote] });
    stack.defer(() => fake.close());
    env = { MCP_DESK_DATA_DIR: dataDir, MCP_DESK_KEYCHAIN_SERVICE: SERVICE, MCP_DESK_REGISTRY_URL: fake.url };
  });
  after(async () => {
    await store.delete('server.remote-weather.Authorization').catch(() => undefined);
    await stack.run();
  });

  const entryLink = `mcp-desk://install?name=modern&config=${b64url({ command: process.execPath, args: [SERVERS.modern] })}`;

  it('without --yes: prints the preview and installs nothing', async () => {
    const r = await runCli(['install', entryLink], env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Will be saved as "modern"/);
    assert.match(r.stdout, /modern-server\.mjs/);
    assert.match(r.stdout, /Not installed\. Run again with --yes/);
    assert.ok(!existsSync(configPath()) || !(await readFile(configPath(), 'utf8')).includes('"modern"'));
  });

  it('with --yes: installs the entry and it connects', async () => {
    const r = await runCli(['install', entryLink, '--yes', '--json'], env);
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as {
      installed: boolean;
      server: { id: string; state: string };
    };
    assert.deepEqual(report.server, { id: 'modern', state: 'connected' });
    assert.ok(report.installed);
    const saved = JSON.parse(await readFile(configPath(), 'utf8')) as { mcpServers: Record<string, unknown> };
    assert.deepEqual(saved.mcpServers.modern, { command: process.execPath, args: [SERVERS.modern] });
  });

  it('refuses a broken link with its reason and writes nothing', async () => {
    const before = await readFile(configPath(), 'utf8');
    const r = await runCli(['install', 'mcp-desk://install?name=x&config=e30&evil=1', '--yes'], env);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /unknown parameter "evil"/);
    assert.equal(await readFile(configPath(), 'utf8'), before);
  });

  it(
    'a registry link: a missing secret is named, --set fills it into the keychain only',
    { skip },
    async () => {
      requireKeychain(problem);
      const link = 'mcp-desk://install?registry=io.github.user/remote-weather';
      const missing = await runCli(['install', link, '--yes', '--set', `host=${httpHost}`], env);
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /missing Authorization/);
      const token = `Bearer cli-token-${randomBytes(6).toString('hex')}`;
      const r = await runCli(
        ['install', link, '--yes', '--set', `host=${httpHost}`, '--set', `Authorization=${token}`],
        env,
      );
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /Installed "remote-weather"/);
      const saved = await readFile(configPath(), 'utf8');
      assert.match(saved, /\$\{secret:remote-weather\.Authorization\}/);
      assert.ok(!saved.includes(token) && !r.stdout.includes(token) && !r.stderr.includes(token));
      assert.equal(await store.get('server.remote-weather.Authorization'), token);
      assert.ok(
        fake.requests.some((q) =>
          q.startsWith('GET /v0/servers/io.github.user%2Fremote-weather/versions/latest'),
        ),
      );
    },
  );
});
