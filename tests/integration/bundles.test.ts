/**
 * MCP Bundles (.mcpb) end to end through the router, with the real keychain (npm test provides
 * one: scripts/keyring-session.mjs; without a Secret Service the keychain-backed test skips by
 * hand and fails in CI). A bundle built here from our fixture server installs, runs from the
 * data folder on the app's own Node, lists its tools and sees its user_config; the sensitive
 * value sits in the keychain only (not in mcp-servers.json, audit, logs, trace, any response or
 * event); an update to 2.0 keeps the values; uninstall removes the server, files and secrets.
 * Hostile bundles are refused with their reason and leave the data folder as it was.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type {
  BundleInstallResult,
  BundleOffer,
  BundlePreview,
  InstalledBundle,
} from '../../shared/domain/bundles.js';
import type { HostError } from '../../shared/ipc/host-error.js';
import type { RouteResult } from '../../electron/host/router.js';
import { KeychainSecretStore, MemorySecretStore } from '../../electron/host/stores/secret-store.js';
import {
  CleanupStack,
  createTestHost,
  textOf,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';
import { buildFixtureBundle, buildHostileBundles, FIXTURE_BUNDLE } from '../helpers/mcpb-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';
import { checkKeychain, requireKeychain } from '../helpers/keychain-check.js';

const TOKEN = `bundle-token-${randomBytes(8).toString('hex')}`;
const SERVICE = `MCP Desk bundles test ${randomBytes(4).toString('hex')}`;

const { problem, skip } = await checkKeychain(new KeychainSecretStore({ service: SERVICE }));

/** Every file under `dir`, relative path → text. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])) {
    if (!e.isFile()) continue;
    const path = join(e.parentPath, e.name);
    const text = await readFile(path, 'utf8').catch(() => null);
    if (text !== null) out.set(path.slice(dir.length), text);
  }
  return out;
}

function ok<T>(r: RouteResult): T {
  assert.ok(r.ok, `expected success, got ${JSON.stringify(r)}`);
  return r.value as T;
}
function failed(r: RouteResult): HostError {
  assert.ok(!r.ok, `expected a failure, got ${JSON.stringify(r).slice(0, 300)}`);
  return r.error;
}

describe('bundles through the router (real keychain)', { timeout: 120_000, skip }, () => {
  const stack = new CleanupStack();
  let t: TestHost;
  let files: string;
  let dataDir: string;
  const store = new KeychainSecretStore({ service: SERVICE });
  const seen: unknown[] = [];
  const call = async (channel: string, payload: unknown) => {
    const r = await t.router.handle(channel, payload);
    seen.push(r);
    return r;
  };

  after(() => stack.run());
  before(async () => {
    requireKeychain(problem);
    files = await tempDir(stack);
    t = await createTestHost(stack, { secretStore: store, dataDir: true });
    dataDir = join(t.dir, 'data');
    t.events.onAny((event, payload) => seen.push({ event, payload }));
    stack.defer(async () => {
      for (const n of await store.names()) await store.delete(n);
    });
  });

  it('installs 1.0, connects on our Node, and keeps the token in the keychain only', async () => {
    const file = await buildFixtureBundle(files, '1.0.0');
    const preview = ok<BundlePreview>(await call('bundles.inspect', { path: file }));
    assert.equal(preview.name, FIXTURE_BUNDLE);
    assert.equal(preview.displayName, 'Desk Fixture');
    assert.equal(preview.version, '1.0.0');
    assert.equal(preview.serverType, 'node');
    assert.equal(preview.signature.status, 'unsigned');
    assert.deepEqual(preview.compatibility, {
      ok: true,
      problems: [],
      platforms: ['darwin', 'win32', 'linux'],
      runtimes: { node: '>=18.0.0' },
    });
    assert.deepEqual(
      preview.tools.map((x) => x.name),
      ['show-config', 'echo'],
    );
    assert.deepEqual(
      preview.prompts.map((x) => x.name),
      ['hello'],
    );
    assert.equal(preview.installed, undefined);
    const token = preview.userConfig.find((f) => f.key === 'api_token');
    assert.equal(token?.sensitive, true);
    assert.equal(preview.userConfig.find((f) => f.key === 'limit')?.default, 5);

    // A required value missing is named; a number out of range too.
    const missing = failed(await call('bundles.install', { stagingId: preview.stagingId, values: {} }));
    assert.equal(missing.code, 'bundle_values_invalid');
    assert.deepEqual(Object.keys(missing.details?.fields ?? {}).sort(), ['api_token', 'greeting']);
    const range = failed(
      await call('bundles.install', {
        stagingId: preview.stagingId,
        values: { greeting: 'hi', api_token: TOKEN, limit: 50 },
      }),
    );
    assert.match(range.message, /Limit \(limit\) must be at most 10/);

    const result = ok<BundleInstallResult>(
      await call('bundles.install', {
        stagingId: preview.stagingId,
        values: { greeting: 'hello from 1', api_token: TOKEN, verbose: true },
      }),
    );
    assert.deepEqual(result, { serverId: FIXTURE_BUNDLE, name: FIXTURE_BUNDLE, version: '1.0.0' });
    await waitForState(t.host, FIXTURE_BUNDLE, 'connected');
    const tools = t.host.catalog().tools.filter((x) => x.serverId === FIXTURE_BUNDLE);
    assert.deepEqual(tools.map((x) => x.tool.name).sort(), ['echo', 'show-config']);
    const shown = JSON.parse(textOf(await t.host.callTool(FIXTURE_BUNDLE, 'show-config', {}))) as Record<
      string,
      unknown
    >;
    assert.equal(shown.greeting, 'hello from 1');
    assert.equal(shown.token, 'set');
    assert.equal(shown.tokenLength, TOKEN.length);
    assert.equal(shown.limit, '5', 'an optional value left unset takes its default');
    assert.equal(shown.verbose, 'true');
    assert.equal(shown.electronRunAsNode, '1', 'node bundles run on the app’s own Node');

    const saved = await readFile(t.configPath, 'utf8');
    assert.match(saved, /\$\{secret:mcpb\.desk-fixture\.api_token\}/);
    assert.match(saved, /"bundle": \{\s*"name": "desk-fixture",\s*"version": "1.0.0",\s*"runtime": "node"/);
    assert.equal(await store.get('server.mcpb.desk-fixture.api_token'), TOKEN);
    const installed = ok<InstalledBundle[]>(await call('bundles.list', {}));
    assert.deepEqual(
      installed.map((b) => [b.name, b.version, b.serverId]),
      [[FIXTURE_BUNDLE, '1.0.0', FIXTURE_BUNDLE]],
    );
  });

  it('updates to 2.0 with the previous values and the stored token, then removes 1.0', async () => {
    const file = await buildFixtureBundle(files, '2.0.0');
    const preview = ok<BundlePreview>(await call('bundles.inspect', { path: file }));
    assert.deepEqual(preview.installed, { version: '1.0.0' });
    assert.equal(preview.userConfig.find((f) => f.key === 'greeting')?.previous, 'hello from 1');
    assert.equal(preview.userConfig.find((f) => f.key === 'api_token')?.stored, true);
    const result = ok<BundleInstallResult>(
      await call('bundles.install', { stagingId: preview.stagingId, values: {} }),
    );
    assert.equal(result.previousVersion, '1.0.0');
    await waitForState(t.host, FIXTURE_BUNDLE, 'connected');
    const shown = JSON.parse(textOf(await t.host.callTool(FIXTURE_BUNDLE, 'show-config', {}))) as Record<
      string,
      unknown
    >;
    assert.equal(shown.version, '2.0.0');
    assert.equal(shown.greeting, 'hello from 1');
    assert.equal(shown.token, 'set');
    assert.ok(t.host.catalog().tools.some((x) => x.serverId === FIXTURE_BUNDLE && x.tool.name === 'v2-only'));
    const folders = await readdir(join(dataDir, 'bundles', FIXTURE_BUNDLE));
    assert.deepEqual(folders.sort(), ['2.0.0', 'bundle.json']);
  });

  it('never lets the token out: config, audit, logs, trace, responses, events', async () => {
    const all = await snapshot(dataDir);
    all.set('config', await readFile(t.configPath, 'utf8'));
    all.set('log', JSON.stringify(t.host.log(FIXTURE_BUNDLE)));
    all.set('trace', JSON.stringify(t.host.trace(FIXTURE_BUNDLE)));
    all.set('seen', JSON.stringify(seen));
    for (const [where, text] of all) assert.ok(!text.includes(TOKEN), `${where} holds the token`);
    const audit = [...all]
      .filter(([p]) => p.includes('audit'))
      .map(([, text]) => text)
      .join('\n');
    assert.match(audit, /"action":"installed"/);
    assert.match(audit, /"action":"updated"/);
  });

  it('uninstalls: server, files and keychain secrets gone', async () => {
    ok(await call('bundles.uninstall', { name: FIXTURE_BUNDLE }));
    assert.equal(t.host.serverConfig(FIXTURE_BUNDLE), undefined);
    assert.doesNotMatch(await readFile(t.configPath, 'utf8'), /desk-fixture/);
    assert.deepEqual(await readdir(join(dataDir, 'bundles')).catch(() => []), []);
    assert.equal(await store.get('server.mcpb.desk-fixture.api_token'), undefined);
    assert.deepEqual(ok<InstalledBundle[]>(await call('bundles.list', {})), []);
    const again = failed(await call('bundles.uninstall', { name: FIXTURE_BUNDLE }));
    assert.equal(again.code, 'bundle_not_found');
  });
});

describe('hostile bundles', { timeout: 60_000 }, () => {
  const stack = new CleanupStack();
  after(() => stack.run());

  it('are refused with a clear reason and write nothing', async () => {
    const files = await tempDir(stack);
    const t = await createTestHost(stack, { secretStore: new MemorySecretStore(), dataDir: true });
    const before = await snapshot(t.dir);
    for (const { file, reason } of await buildHostileBundles(files)) {
      const error = failed(await t.router.handle('bundles.inspect', { path: file }));
      assert.equal(error.code, 'bundle_invalid', `${file}: ${error.message}`);
      assert.match(error.message, reason);
      // The same file as bytes (browser mode) is refused the same way.
      const bytes = (await readFile(file)).toString('base64');
      const viaBytes = failed(
        await t.router.handle('bundles.inspect', { fileName: 'x.mcpb', base64: bytes }),
      );
      assert.match(viaBytes.message, reason);
    }
    assert.deepEqual(await snapshot(t.dir), before, 'the data folder is unchanged');
    assert.deepEqual(
      await readdir(t.dir),
      (await readdir(t.dir)).filter((n) => n !== 'escaped.txt'),
    );
    assert.deepEqual(
      (await readdir(join(t.dir, 'data'))).filter((n) => n === 'bundles'),
      [],
      'no bundles folder is left behind',
    );
  });

  it('a discarded preview leaves nothing; a bundle too big for the bridge is refused by the contract', async () => {
    const files = await tempDir(stack);
    const t = await createTestHost(stack, { secretStore: new MemorySecretStore(), dataDir: true });
    const file = await buildFixtureBundle(files, '1.0.0');
    const preview = ok<BundlePreview>(await t.router.handle('bundles.inspect', { path: file }));
    assert.ok((await readdir(join(t.dir, 'data', 'bundles', '.staging'))).length > 0);
    ok(await t.router.handle('bundles.discard', { stagingId: preview.stagingId }));
    assert.deepEqual(
      (await readdir(join(t.dir, 'data'))).filter((n) => n === 'bundles'),
      [],
    );
    const gone = failed(
      await t.router.handle('bundles.install', { stagingId: preview.stagingId, values: {} }),
    );
    assert.equal(gone.code, 'bundle_not_found');
    const big = failed(
      await t.router.handle('bundles.inspect', { fileName: 'big.mcpb', base64: 'A'.repeat(7_100_000) }),
    );
    assert.equal(big.code, 'invalid_request');
    assert.match(big.message, /larger than 5 MiB/);
  });

  it('a file opened from outside waits for the window, then arrives as an event', async () => {
    const files = await tempDir(stack);
    const t = await createTestHost(stack, { secretStore: new MemorySecretStore(), dataDir: true });
    const offered: BundleOffer[] = [];
    t.events.on('bundles.offered', (o) => offered.push(o));
    await t.bundles?.offerFile(await buildFixtureBundle(files, '1.0.0'));
    assert.equal(offered.length, 0, 'no window asked yet: kept');
    const waiting = ok<BundleOffer[]>(await t.router.handle('bundles.offers', {}));
    assert.deepEqual(
      waiting.map((o) => (o.kind === 'preview' ? o.preview.name : o.kind)),
      [FIXTURE_BUNDLE],
    );
    const [hostile] = await buildHostileBundles(files);
    await t.bundles?.offerFile(hostile?.file ?? '');
    assert.equal(offered.length, 1);
    const [offer] = offered;
    assert.ok(offer?.kind === 'error' && offer.error.code === 'bundle_invalid', JSON.stringify(offer));
    assert.equal(offer.fileName, 'traversal.mcpb');
    assert.deepEqual(ok<BundleOffer[]>(await t.router.handle('bundles.offers', {})), []);
  });

  it('a server of the same name that is not the bundle is a conflict, not overwritten', async () => {
    const files = await tempDir(stack);
    const t = await createTestHost(stack, {
      secretStore: new MemorySecretStore(),
      dataDir: true,
      servers: { [FIXTURE_BUNDLE]: { command: 'node', args: ['-e', ''], disabled: true } },
    });
    const preview = ok<BundlePreview>(
      await t.router.handle('bundles.inspect', { path: await buildFixtureBundle(files, '1.0.0') }),
    );
    assert.match(preview.conflict ?? '', /already exists: rename or remove it first/);
    const refused = failed(
      await t.router.handle('bundles.install', {
        stagingId: preview.stagingId,
        values: { greeting: 'x', api_token: 'y' },
      }),
    );
    assert.equal(refused.code, 'server_exists');
    assert.deepEqual(t.host.serverConfig(FIXTURE_BUNDLE), {
      command: 'node',
      args: ['-e', ''],
      disabled: true,
    });
  });
});
