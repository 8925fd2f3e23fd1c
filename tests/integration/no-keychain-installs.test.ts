/**
 * Issue 29: the ways a server arrives from outside, on a machine with no OS keychain (this
 * process has no Secret Service: its D-Bus address points nowhere, see
 * tests/helpers/no-keychain.ts; the keychain store is the real one). A bundle, a registry
 * entry and an install link (`mcp-desk install`, a child process) each install with their
 * secret left unset and say so with the keychain's hint; the value is nowhere on disk; a
 * bundle uninstalls. A sign-in, whose tokens have nowhere to go, ends at once with that hint,
 * opens no browser and leaves the server as it was; a remote server that needs no sign-in
 * connects.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { RouteResult } from '../../electron/host/router.js';
import type { BundleInstallResult, BundlePreview } from '../../shared/domain/bundles.js';
import type { InstallOutcome, InstallPreview } from '../../shared/domain/registry.js';
import type { HostError } from '../../shared/ipc/host-error.js';
import { startFakeRegistry } from '../fixtures/fake-registry.mjs';
import { startOAuthFixture } from '../fixtures/oauth-server.js';
import { runCli } from '../helpers/cli-runner.js';
import {
  CleanupStack,
  createTestHost,
  startModernHttp,
  tempDir,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';
import { buildFixtureBundle, FIXTURE_BUNDLE } from '../helpers/mcpb-fixture.js';
import {
  dropSecretService,
  filesHolding,
  NO_KEYCHAIN_HINT,
  noKeychainEnv,
  noKeychainSkip,
} from '../helpers/no-keychain.js';
import { recorded } from '../helpers/registry-fixtures.js';

const TOKEN = `nokeychain-token-${randomBytes(10).toString('hex')}`;
const SERVICE = `MCP Desk no-keychain installs ${randomBytes(4).toString('hex')}`;

if (!noKeychainSkip) dropSecretService();

function ok<T>(r: RouteResult): T {
  assert.ok(r.ok, `expected success, got ${JSON.stringify(r)}`);
  return r.value as T;
}
function failed(r: RouteResult): HostError {
  assert.ok(!r.ok, `expected a failure, got ${JSON.stringify(r).slice(0, 300)}`);
  return r.error;
}

/** The recorded remote entry pointed at `host` (its URL is `http://{host}/mcp`). */
async function remoteWeather(): Promise<Record<string, unknown>> {
  const remote = await recorded('remote-weather.server.json');
  const [r0] = remote.remotes as Record<string, unknown>[];
  Object.assign(r0 ?? {}, { url: 'http://{host}/mcp' });
  return remote;
}

describe(
  'without an OS keychain: bundles, registry entries, install links, sign-in',
  { skip: noKeychainSkip },
  () => {
    const stack = new CleanupStack();
    let t: TestHost;
    let httpHost: string;
    const seen: string[] = [];
    const opened: string[] = [];
    const call = async (channel: string, payload: unknown) => {
      const r = await t.router.handle(channel, payload);
      seen.push(JSON.stringify(r));
      return r;
    };

    before(async () => {
      t = await createTestHost(stack, {
        dataDir: true,
        env: { ...process.env, MCP_DESK_KEYCHAIN_SERVICE: SERVICE, MCP_DESK_CLIENT_METADATA_URL: '' },
        openExternal: async (url) => {
          opened.push(url);
        },
      });
      t.events.onAny((event, payload) => seen.push(`${event} ${JSON.stringify(payload)}`));
      httpHost = `127.0.0.1:${(await startModernHttp(stack)).port}`;
    });
    after(() => stack.run());

    it('a bundle installs with its sensitive value unset, says why, and uninstalls', async () => {
      const file = await buildFixtureBundle(await tempDir(stack), '1.0.0');
      const preview = ok<BundlePreview>(await call('bundles.inspect', { path: file }));
      const result = ok<BundleInstallResult>(
        await call('bundles.install', {
          stagingId: preview.stagingId,
          values: { greeting: 'hello', api_token: TOKEN },
        }),
      );
      assert.equal(result.serverId, FIXTURE_BUNDLE);
      assert.deepEqual(result.notStored?.names, [`mcpb.${FIXTURE_BUNDLE}.api_token`]);
      assert.match(result.notStored?.reason ?? '', NO_KEYCHAIN_HINT);
      const entry = t.host.serverConfig(FIXTURE_BUNDLE);
      assert.match(JSON.stringify(entry), new RegExp(`\\$\\{secret:mcpb\\.${FIXTURE_BUNDLE}\\.api_token\\}`));
      const audit = await t.audit.query({ kind: 'bundle' });
      assert.deepEqual((audit.at(-1)?.details as { secretsNotStored?: string[] }).secretsNotStored, [
        `mcpb.${FIXTURE_BUNDLE}.api_token`,
      ]);
      assert.deepEqual(await filesHolding([t.dir], TOKEN), []);
      ok(await call('bundles.uninstall', { name: FIXTURE_BUNDLE }));
      assert.equal(t.host.serverConfig(FIXTURE_BUNDLE), undefined);
    });

    it('a registry entry installs with its secret header unset and says why', async () => {
      const preview = ok<InstallPreview>(
        await call('registry.preview', { serverJson: JSON.stringify(await remoteWeather()) }),
      );
      const option = preview.options[0]?.id ?? '';
      const values = Object.fromEntries(
        (preview.options[0]?.inputs ?? []).map((i) => [
          i.id,
          i.label === 'host' ? httpHost : `Bearer ${TOKEN}`,
        ]),
      );
      const outcome = ok<InstallOutcome>(
        await call('registry.install', { previewId: preview.previewId, option, values, name: 'weather' }),
      );
      assert.equal(outcome.kind, 'server');
      if (outcome.kind !== 'server') return;
      assert.equal(outcome.server.id, 'weather');
      assert.deepEqual(outcome.notStored?.names, ['weather.Authorization']);
      assert.match(outcome.notStored?.reason ?? '', NO_KEYCHAIN_HINT);
      const saved = await readFile(t.configPath, 'utf8');
      assert.match(saved, /\$\{secret:weather\.Authorization\}/);
      assert.deepEqual(await filesHolding([t.dir], TOKEN), []);
    });

    it('a remote server that needs no sign-in connects', async () => {
      ok(await call('servers.add', { name: 'open-remote', config: { url: `http://${httpHost}/mcp` } }));
      await waitForState(t.host, 'open-remote', 'connected');
    });

    it('a sign-in ends at once with the hint, opens no browser, and leaves the server as it was', async () => {
      const as = await startOAuthFixture();
      stack.defer(() => as.close());
      ok(await call('servers.add', { name: 'protected', config: { url: as.mcpUrl } }));
      await waitForState(t.host, 'protected', 'auth-required');
      const signIn = failed(await call('auth.signIn', { serverId: 'protected' }));
      assert.equal(signIn.code, 'keychain_unavailable');
      assert.match(signIn.message, NO_KEYCHAIN_HINT);
      assert.deepEqual(opened, [], 'no browser was opened for a sign-in whose tokens could not be kept');
      const s = await waitForState(t.host, 'protected', 'auth-required');
      assert.equal(s.auth?.kind, 'failed');
      assert.match(s.auth?.kind === 'failed' ? s.auth.reason : '', NO_KEYCHAIN_HINT);
      // A second try is refused the same way, not by a sign-in still "under way".
      assert.equal(failed(await call('auth.signIn', { serverId: 'protected' })).code, 'keychain_unavailable');
    });

    it('the values are nowhere: not on disk, not in an event or answer', async () => {
      assert.deepEqual(await filesHolding([t.dir], TOKEN), []);
      assert.equal(seen.join('\n').includes(TOKEN), false, 'an event or answer holds a value');
    });
  },
);

describe('without an OS keychain: mcp-desk install with an install link', { skip: noKeychainSkip }, () => {
  const stack = new CleanupStack();
  after(() => stack.run());

  it('installs the registry entry with its secret unset and says why', async () => {
    const dataDir = await tempDir(stack);
    const http = await startModernHttp(stack);
    const fake = await startFakeRegistry({ servers: [await remoteWeather()] });
    stack.defer(() => fake.close());
    const env = {
      ...noKeychainEnv(),
      MCP_DESK_DATA_DIR: dataDir,
      MCP_DESK_KEYCHAIN_SERVICE: SERVICE,
      MCP_DESK_REGISTRY_URL: fake.url,
    };
    const link = 'mcp-desk://install?registry=io.github.user/remote-weather';
    const secret = `Bearer ${TOKEN}`;
    const r = await runCli(
      ['install', link, '--yes', '--set', `host=127.0.0.1:${http.port}`, '--set', `Authorization=${secret}`],
      env,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Installed "remote-weather"/);
    assert.match(r.stdout, /not set — no keychain here: \$\{secret:remote-weather\.Authorization\}/);
    assert.match(r.stdout, NO_KEYCHAIN_HINT);
    const saved = await readFile(join(dataDir, 'mcp-servers.json'), 'utf8');
    assert.match(saved, /\$\{secret:remote-weather\.Authorization\}/);
    assert.equal(`${r.stdout}${r.stderr}`.includes(TOKEN), false);
    assert.deepEqual(await filesHolding([dataDir], TOKEN), []);
  });
});
