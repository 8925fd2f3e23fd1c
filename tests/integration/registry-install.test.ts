/**
 * Registry entries end to end through the router (issue 14 item 5, must-show 4): a fake registry
 * on 127.0.0.1 serves recorded server.json entries and, as an npm registry, our fixture package.
 * The npm entry installs as `npx -y` against that registry (a throwaway npm cache) and really
 * connects; the remote entry installs with its secret header and connects to our HTTP fixture
 * behind a header recorder. The secret values reach the keychain and the wire, nothing else.
 * Also: paging, registry failures in words, and the mcpb download with its SHA-256 check.
 */
import type { BundlePreview } from '../../shared/domain/bundles.js';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { InstallOutcome, InstallPreview, RegistryPage } from '../../shared/domain/registry.js';
import { downloadBundle } from '../../electron/host/registry/bundle-download.js';
import { RegistryClient } from '../../electron/host/registry/registry-client.js';
import { RegistryService } from '../../electron/host/registry/registry-service.js';
import { MemorySecretStore } from '../../electron/host/stores/secret-store.js';
import { HostFailure } from '../../electron/host/util/errors.js';
import { startFakeRegistry } from '../fixtures/fake-registry.mjs';
import {
  CleanupStack,
  createTestHost,
  startHeaderRecorder,
  startModernHttp,
  tempDir,
  textOf,
  waitForState,
  type HeaderRecorder,
  type TestHost,
} from '../helpers/host-harness.js';
import { npmEntryOn, packFixturePackage, recorded } from '../helpers/registry-fixtures.js';

const NPM_SECRET = 'ctx7-key-4b1d9e0c7a';
const HEADER_SECRET = 'weather-token-93c2e7a1f0';

describe('installing registry entries', { timeout: 180_000 }, () => {
  const stack = new CleanupStack();
  let t: TestHost;
  let recorder: HeaderRecorder;

  async function call<T>(channel: string, payload: unknown): Promise<T> {
    const r = await t.router.handle(channel, payload);
    assert.ok(r.ok, `${channel}: ${JSON.stringify(r)}`);
    return r.value as T;
  }

  before(async () => {
    const pkg = await packFixturePackage();
    // The fake npm registry is the same server: its URL is known only once it listens.
    const servers: Record<string, unknown>[] = [];
    const fake = await startFakeRegistry({ servers, packages: [pkg] });
    stack.defer(() => fake.close());
    const remote = await recorded('remote-weather.server.json');
    // Recorded as https://{host}/mcp; our fixture speaks plain http on 127.0.0.1.
    const [r0] = remote.remotes as Record<string, unknown>[];
    Object.assign(r0 ?? {}, { url: 'http://{host}/mcp' });
    servers.push(await npmEntryOn(fake.url, pkg), remote);
    for (let i = 0; i < 5; i++)
      servers.push({ name: `io.example/filler-${i}`, description: 'filler', version: '0.0.1' });
    const http = await startModernHttp(stack);
    recorder = await startHeaderRecorder(stack, http.port);
    const cache = await tempDir(stack);
    t = await createTestHost(stack, {
      dataDir: true,
      secretStore: new MemorySecretStore(),
      env: {
        ...process.env,
        MCP_DESK_REGISTRY_URL: fake.url,
        npm_config_cache: cache,
        npm_config_update_notifier: 'false',
        npm_config_fund: 'false',
        npm_config_audit: 'false',
      },
    });
  });
  after(() => stack.run());

  it('searches with paging over the recorded entries', async () => {
    const hit = await call<RegistryPage>('registry.search', { search: 'context7' });
    assert.deepEqual(
      hit.entries.map((e) => [e.name, e.packageTypes, e.status]),
      [['io.github.upstash/context7', ['npm'], 'active']],
    );
    const first = await call<RegistryPage>('registry.search', { limit: 3 });
    assert.equal(first.entries.length, 3);
    assert.ok(first.nextCursor);
    const second = await call<RegistryPage>('registry.search', { limit: 3, cursor: first.nextCursor });
    assert.deepEqual(
      second.entries.map((e) => e.name),
      ['io.example/filler-1', 'io.example/filler-2', 'io.example/filler-3'],
    );
  });

  it('installs the npm entry with npx -y from the local npm registry, its secret in the keychain', async () => {
    const preview = await call<InstallPreview>('registry.preview', { name: 'io.github.upstash/context7' });
    assert.equal(preview.validation.ok, true);
    assert.equal(preview.suggestedName, 'context7');
    assert.deepEqual(
      preview.options[0]?.inputs.map((i) => i.id),
      ['env.CONTEXT7_API_KEY'],
    );
    const outcome = await call<InstallOutcome>('registry.install', {
      previewId: preview.previewId,
      option: 'package-0',
      values: { 'env.CONTEXT7_API_KEY': NPM_SECRET },
      name: 'context7',
    });
    assert.equal(outcome.kind, 'server');
    await waitForState(t.host, 'context7', 'connected', 120_000);
    const result = await t.host.callTool('context7', 'env-set', { name: 'CONTEXT7_API_KEY' });
    assert.equal(textOf(result), 'set');
    const saved = await readFile(t.configPath, 'utf8');
    assert.match(saved, /"npx"/);
    assert.match(saved, /mcp-desk-registry-fixture@1\.0\.0/);
    assert.match(saved, /\$\{secret:context7\.CONTEXT7_API_KEY\}/);
    assert.equal(await t.secrets.get('server.context7.CONTEXT7_API_KEY'), NPM_SECRET);
  });

  it('installs the remote entry with its secret header and connects', async () => {
    const preview = await call<InstallPreview>('registry.preview', { name: 'io.github.user/remote-weather' });
    const host = new URL(recorder.origin).host;
    const missing = await t.router.handle('registry.install', {
      previewId: preview.previewId,
      option: 'remote-0',
      values: { 'url.host': host },
      name: 'weather',
    });
    assert.ok(!missing.ok && missing.error.code === 'input_missing');
    assert.match(missing.error.message, /Authorization/);
    await call('registry.install', {
      previewId: preview.previewId,
      option: 'remote-0',
      values: { 'url.host': host, 'header.Authorization': `Bearer ${HEADER_SECRET}` },
      name: 'weather',
    });
    await waitForState(t.host, 'weather', 'connected', 30_000);
    assert.ok(recorder.requests.some((r) => r.headers.authorization === `Bearer ${HEADER_SECRET}`));
    assert.ok(t.host.catalog().tools.some((x) => x.serverId === 'weather' && x.tool.name === 'echo'));
  });

  it('keeps both secrets out of the config, the data folder and the logs', async () => {
    const files = [t.configPath];
    for (const e of await readdir(join(t.dir, 'data'), { withFileTypes: true, recursive: true }))
      if (e.isFile()) files.push(join(e.parentPath, e.name));
    for (const file of files) {
      const text = await readFile(file, 'utf8').catch(() => '');
      for (const secret of [NPM_SECRET, HEADER_SECRET]) assert.ok(!text.includes(secret), `${file} leaks`);
    }
    for (const id of ['context7', 'weather']) {
      const output = JSON.stringify([t.host.log(id), t.host.trace(id)]);
      for (const secret of [NPM_SECRET, HEADER_SECRET])
        assert.ok(!output.includes(secret), `${id} output leaks`);
    }
  });
});

describe('registry failures and bundle downloads', { timeout: 60_000 }, () => {
  const stack = new CleanupStack();
  after(() => stack.run());

  async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
    const server = createServer(handler);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    stack.defer(async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async function failure(promise: Promise<unknown>): Promise<HostFailure> {
    const e = await promise.then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(e instanceof HostFailure, String(e));
    return e;
  }

  it('says the registry cannot be reached, answered an error, or is not a registry', async () => {
    const client = new RegistryClient({ timeoutMs: 5000, maxBytes: 1024 });
    const down = await failure(client.search('http://127.0.0.1:9', {}));
    assert.equal(down.code, 'registry_unreachable');
    assert.match(down.message, /cannot be reached/);
    const html = await serve((_q, s) => s.writeHead(200, { 'content-type': 'text/html' }).end('<html>'));
    assert.match((await failure(client.search(html, {}))).message, /not JSON/);
    const err = await serve((_q, s) => s.writeHead(503).end('maintenance'));
    assert.equal((await failure(client.search(err, {}))).code, 'registry_error');
    const big = await serve((_q, s) => s.writeHead(200).end('x'.repeat(4096)));
    assert.match((await failure(client.search(big, {}))).message, /stopped reading/);
    assert.equal((await failure(client.search('http://example.com', {}))).code, 'invalid_settings');
  });

  it('downloads an mcpb package, checks its SHA-256 and hands it to the bundle flow', async () => {
    const bytes = Buffer.from('PK fake bundle bytes');
    const sha = createHash('sha256').update(bytes).digest('hex');
    const origin = await serve((_q, s) => s.writeHead(200).end(bytes));
    const dir = await tempDir(stack);
    const inspected: string[] = [];
    const service = new RegistryService({
      client: new RegistryClient(),
      servers: { list: () => [], add: () => Promise.reject(new Error('not here')) },
      secrets: { set: () => Promise.resolve() },
      registryUrl: () => origin,
      // A stand-in for the bundle flow: this test is about the download and its checksum only.
      bundles: {
        inspectFile: async (path) => (
          inspected.push(path),
          { name: 'fake-bundle' } as unknown as BundlePreview
        ),
      },
      downloadsDir: join(dir, 'bundles', '.downloads'),
    });
    const doc = (fileSha256: string) =>
      JSON.stringify({
        name: 'io.example/bundle',
        description: 'a bundle',
        version: '1.0.0',
        packages: [
          { registryType: 'mcpb', identifier: `${origin}/x.mcpb`, fileSha256, transport: { type: 'stdio' } },
        ],
      });
    const good = await service.preview({ serverJson: doc(sha) });
    assert.equal(good.options[0]?.available, true);
    const outcome = await service.install({
      previewId: good.previewId,
      option: 'package-0',
      values: {},
      name: 'b',
    });
    assert.ok(outcome.kind === 'bundle');
    assert.deepEqual(outcome.preview, { name: 'fake-bundle' });
    assert.deepEqual(await readFile(outcome.path), bytes);
    assert.deepEqual(inspected, [outcome.path]);

    const bad = await service.preview({ serverJson: doc('0'.repeat(64)) });
    const e = await failure(
      service.install({ previewId: bad.previewId, option: 'package-0', values: {}, name: 'b' }),
    );
    assert.equal(e.code, 'checksum_mismatch');
    assert.deepEqual(
      (await readdir(join(dir, 'bundles', '.downloads'))).filter((f) => f !== `${sha}.mcpb`),
      [],
      'nothing of the bad download is left',
    );
    assert.equal(inspected.length, 1, 'the bad file never reached the bundle flow');
    const direct = await failure(downloadBundle(`${origin}/x`, 'f'.repeat(64), dir));
    assert.equal(direct.code, 'checksum_mismatch');
  });
});
