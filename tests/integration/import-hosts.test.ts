/**
 * Importing from other MCP hosts through the router, with the real host core and the real
 * keychain (npm test provides one: gnome-keyring in a private D-Bus session, scripts/keyring-session.mjs).
 * A throwaway HOME holds Claude Desktop's file and a test-only second host's; the scan finds
 * both, renames taken and invalid names, reports conflicts and broken files; apply moves the
 * literal secrets into the keychain and the servers start with them. Issue 14 must-show 2: the
 * literal values are afterwards only in the keychain — not in mcp-servers.json, the audit log,
 * any file of the data folder, a server's log or trace, an event or any channel response.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ImportCandidate } from '../../shared/domain/imports.js';
import type { ImportApplyResult, ImportResult, ImportScanResult } from '../../shared/ipc/contract.js';
import { claudeDesktop } from '../../electron/host/importers/claude-desktop.js';
import { SERVER_SECRET_PREFIX } from '../../electron/host/stores/server-secrets.js';
import { KeychainSecretStore } from '../../electron/host/stores/secret-store.js';
import type { RouteResult } from '../../electron/host/router.js';
import {
  claudeDesktopFile,
  TEST_HOST_PATH,
  testHostImporter,
  writeFakeHome,
  type HostFile,
} from '../helpers/fake-hosts.js';
import {
  CleanupStack,
  createTestHost,
  nodeServer,
  SERVERS,
  startEverythingHttp,
  startHeaderRecorder,
  tempDir,
  textOf,
  waitForState,
  type HeaderRecorder,
  type TestHost,
} from '../helpers/host-harness.js';
import { KEYCHAIN_HOWTO } from '../helpers/keychain-check.js';

const hex = () => randomBytes(8).toString('hex');
// Shaped like real keys, so they are found by value as well as by name.
const GITHUB = `ghp_${hex()}${hex()}`;
const BEARER = `sk-${hex()}${hex()}`;
const ARG_KEY = `sk-${hex()}${hex()}`;
const PASTED = `xoxb-${hex()}-${hex()}`;
const FROM_FILE = `sk-${hex()}${hex()}`;
const VALUES = [GITHUB, BEARER, ARG_KEY, PASTED, FROM_FILE];
const SERVICE = `MCP Desk import test ${hex()}`;

const skipReason =
  process.platform === 'linux' && !process.env.DBUS_SESSION_BUS_ADDRESS
    ? `no Secret Service session: ${KEYCHAIN_HOWTO}`
    : undefined;

function assertClean(what: string, value: unknown): void {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  for (const v of VALUES) {
    const at = text.indexOf(v);
    assert.ok(at < 0, `${what} leaks a secret: …${text.slice(Math.max(0, at - 200), at + 40)}`);
  }
}

async function filesUnder(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const text = await readFile(join(e.parentPath, e.name), 'utf8').catch(() => null);
    if (text !== null) out.set(join(e.parentPath, e.name), text);
  }
  return out;
}

describe('import from other hosts', { timeout: 120_000, skip: skipReason }, () => {
  const stack = new CleanupStack();
  const secretStore = new KeychainSecretStore({ service: SERVICE });
  let t: TestHost;
  let home: string;
  let project: string;
  let recorder: HeaderRecorder;
  let layout: HostFile[];
  let scan: ImportScanResult;
  const responses: RouteResult[] = [];
  const events: unknown[] = [];

  async function call<T>(channel: string, payload: unknown): Promise<T> {
    const r = await t.router.handle(channel, payload);
    responses.push(r);
    assert.ok(r.ok, `${channel}: ${JSON.stringify(r)}`);
    return r.value as T;
  }
  const candidates = (): ImportCandidate[] => scan.hosts.flatMap((h) => h.files.flatMap((f) => f.servers));
  const bySource = (host: string, source: string): ImportCandidate => {
    const c = scan.hosts
      .find((h) => h.id === host)
      ?.files.flatMap((f) => f.servers)
      .find((s) => s.sourceName === source);
    assert.ok(c, `no candidate ${host}/${source} in ${JSON.stringify(scan)}`);
    return c;
  };

  before(async () => {
    const http = await startEverythingHttp(stack, 'streamableHttp');
    recorder = await startHeaderRecorder(stack, http.port);
    home = await tempDir(stack);
    project = await tempDir(stack);
    const everything = nodeServer(SERVERS.everything, ['stdio']);
    layout = [
      claudeDesktopFile({
        everything: { ...everything, env: { GITHUB_TOKEN: GITHUB, DEBUG: 'true' } },
        'odd/name!': nodeServer(SERVERS.everything, ['stdio', '--api-key', ARG_KEY]),
        mine: nodeServer(SERVERS.crash),
        broken: { args: ['no command'] },
      }),
      {
        path: TEST_HOST_PATH,
        text: JSON.stringify({
          mcpServers: {
            everything: { ...everything, autoApprove: ['echo'] },
            remote: { url: `${recorder.origin}/mcp`, headers: { Authorization: `Bearer ${BEARER}` } },
            filled: { ...nodeServer(SERVERS.crash), env: { API_KEY: '${secret:import-test-input}' } },
            dotenv: { ...nodeServer(SERVERS.crash), env: { MODE: 'own' }, envFile: join(home, 'server.env') },
            nofile: { ...nodeServer(SERVERS.crash), envFile: join(home, 'missing.env') },
          },
          inputs: [
            { server: 'filled', secret: 'import-test-input', from: 'env.API_KEY', description: 'Your key' },
          ],
        }),
      },
    ];
    writeFakeHome(home, [
      ...layout,
      { path: 'server.env', text: `OPENAI_API_KEY=${FROM_FILE}\nMODE=file\n` },
    ]);
    // A project folder (a shared folder) with a file that is not valid JSON.
    writeFakeHome(project, [{ path: TEST_HOST_PATH, text: '{"mcpServers": {' }]);
    t = await createTestHost(stack, {
      secretStore,
      dataDir: true,
      servers: { mine: nodeServer(SERVERS.crash), same: nodeServer(SERVERS.crash) },
      roots: [project],
      imports: {
        importers: [claudeDesktop, testHostImporter],
        context: () => ({ platform: 'linux', home, env: {} }),
      },
    });
    t.events.onAny((event, payload) => events.push({ event, payload }));
    stack.defer(async () => {
      for (const s of await secretStore.names())
        if (s.startsWith(SERVER_SECRET_PREFIX)) await secretStore.delete(s).catch(() => false);
    });
  });
  after(() => stack.run());

  it('scan: both hosts with their files, names made free and valid, conflicts and secrets shown', async () => {
    scan = await call<ImportScanResult>('imports.scan', {});
    assert.deepEqual(
      scan.hosts.map((h) => [h.id, h.files.map((f) => [f.scope, f.error === undefined])]),
      [
        ['claude-desktop', [['user', true]]],
        [
          'cursor',
          [
            ['user', true],
            ['project', false],
          ],
        ],
      ],
    );
    assert.match(scan.hosts[1]?.files[1]?.error ?? '', /not valid JSON/);
    assert.ok(scan.lookedAt.every((l) => l.paths.length > 0));

    const everything = bySource('claude-desktop', 'everything');
    assert.equal(everything.name, 'everything');
    assert.deepEqual(everything.secrets, [
      { name: 'everything.GITHUB_TOKEN', from: 'env.GITHUB_TOKEN', kind: 'moved' },
    ]);
    const env = (everything.config as { env: Record<string, string> }).env;
    assert.deepEqual(env, { GITHUB_TOKEN: '${secret:everything.GITHUB_TOKEN}', DEBUG: 'true' });

    const odd = bySource('claude-desktop', 'odd/name!');
    assert.equal(odd.name, 'odd-name-', 'an invalid name is made valid');
    assert.deepEqual(
      odd.secrets.map((s) => s.from),
      ['args[3]'],
    );

    const mine = bySource('claude-desktop', 'mine');
    assert.equal(mine.name, 'mine-claude-desktop', 'a taken name gets the host');
    assert.deepEqual(
      mine.conflicts.map((c) => [c.kind, c.with]),
      [
        ['same-name', 'mine'],
        ['same-command', 'mine'],
        ['same-command', 'same'],
      ],
    );
    assert.match(bySource('claude-desktop', 'broken').error ?? '', /command/);

    const twin = bySource('cursor', 'everything');
    assert.equal(twin.name, 'everything-cursor');
    assert.deepEqual(
      twin.conflicts.map((c) => c.kind),
      ['same-name', 'same-command'],
    );
    assert.deepEqual(twin.notCarried, ['Its auto-approve list is not carried over.']);
    const remote = bySource('cursor', 'remote');
    assert.equal(
      (remote.config as { headers: Record<string, string> }).headers.Authorization,
      'Bearer ${secret:remote.Authorization}',
    );
    assert.deepEqual(bySource('cursor', 'filled').secrets, [
      { name: 'import-test-input', from: 'env.API_KEY', kind: 'to-fill', description: 'Your key' },
    ]);
    const dotenv = bySource('cursor', 'dotenv');
    assert.deepEqual((dotenv.config as { env: Record<string, string> }).env, {
      OPENAI_API_KEY: '${secret:dotenv.OPENAI_API_KEY}',
      MODE: 'own',
    });
    assert.match(
      bySource('cursor', 'nofile').notCarried[0] ?? '',
      /envFile .*missing\.env.* could not be read \(ENOENT\)/,
    );
    assertClean('the scan', scan);
  });

  it('apply: the chosen servers are added and start with their secrets from the keychain', async () => {
    const keys = ['everything', 'odd/name!'].map((n) => bySource('claude-desktop', n).key);
    keys.push(
      ...['remote', 'filled'].map((n) => bySource('cursor', n).key),
      bySource('claude-desktop', 'broken').key,
    );
    const before = recorder.requests.length;
    const result = await call<ImportApplyResult>('imports.apply', { scanId: scan.scanId, keys });
    assert.deepEqual(
      result.added.map((a) => a.name),
      ['everything', 'odd-name-', 'remote', 'filled'],
    );
    assert.deepEqual(
      result.skipped.map((s) => s.name),
      ['broken'],
    );
    assert.deepEqual(result.added.find((a) => a.name === 'filled')?.unset, ['import-test-input']);
    assert.deepEqual(result.added.find((a) => a.name === 'everything')?.unset, []);

    assert.equal(await secretStore.get(`${SERVER_SECRET_PREFIX}everything.GITHUB_TOKEN`), GITHUB);
    assert.equal(await secretStore.get(`${SERVER_SECRET_PREFIX}remote.Authorization`), BEARER);
    assert.equal(await secretStore.get(`${SERVER_SECRET_PREFIX}odd-name-.api-key`), ARG_KEY);

    await waitForState(t.host, 'everything', 'connected');
    const env = JSON.parse(textOf(await t.host.callTool('everything', 'get-env', {}))) as Record<
      string,
      string
    >;
    assert.equal(env.GITHUB_TOKEN, GITHUB, 'the server got the moved secret');
    await waitForState(t.host, 'remote', 'connected');
    assert.ok(
      recorder.requests.slice(before).every((q) => q.headers.authorization === `Bearer ${BEARER}`),
      'the remote got its header back',
    );
    await waitForState(t.host, 'odd-name-', 'connected');
  });

  it('a scan is applied once; a new scan sees what is here now', async () => {
    const again = await t.router.handle('imports.apply', { scanId: scan.scanId, keys: ['x'] });
    assert.ok(!again.ok && again.error.code === 'scan_expired');
    scan = await call<ImportScanResult>('imports.scan', {});
    const twin = bySource('claude-desktop', 'everything');
    assert.equal(twin.name, 'everything-claude-desktop');
    assert.deepEqual(
      twin.conflicts.map((c) => [c.kind, c.with]),
      [
        ['same-name', 'everything'],
        ['same-command', 'everything'],
      ],
    );
    // The moved secret's name is taken now, so a second import would get its own.
    assert.equal(twin.secrets[0]?.name, 'everything-claude-desktop.GITHUB_TOKEN');
    assert.ok(candidates().length > 0);
  });

  it('pasted JSON moves its literal secrets the same way and says which', async () => {
    const json = JSON.stringify({
      mcpServers: { pasted: { ...nodeServer(SERVERS.crash), env: { SLACK_BOT_TOKEN: PASTED } } },
    });
    const result = await call<ImportResult>('servers.import', { json });
    assert.deepEqual(result.added, ['pasted']);
    assert.deepEqual(result.secrets, [
      { server: 'pasted', name: 'pasted.SLACK_BOT_TOKEN', from: 'env.SLACK_BOT_TOKEN' },
    ]);
    assert.equal(await secretStore.get(`${SERVER_SECRET_PREFIX}pasted.SLACK_BOT_TOKEN`), PASTED);
  });

  it('export: a snippet with references, never a value', async () => {
    const snippet = await call<{ text: string }>('imports.export', { ids: 'all', format: 'claude-desktop' });
    assert.match(snippet.text, /\$\{secret:everything\.GITHUB_TOKEN\}/);
    const bad = await t.router.handle('imports.export', { ids: ['nope'], format: 'claude-desktop' });
    assert.ok(!bad.ok && bad.error.code === 'unknown_server');
  });

  it('must-show 2: the literal values are only in the keychain', async () => {
    for (const id of ['everything', 'remote', 'odd-name-', 'pasted']) {
      await call('servers.log', { id });
      await call('servers.trace', { id });
    }
    await call('servers.list', {});
    await call('serverSecrets.list', {});
    const audit = await call<{ kind: string; action: string; details?: Record<string, unknown> }[]>(
      'audit.query',
      { limit: 1000 },
    );
    const record = audit.find((a) => a.kind === 'import' && a.action === 'imported');
    assert.ok(record, 'the import is audited');
    assert.deepEqual(record.details?.secretsMoved, [
      'everything.GITHUB_TOKEN',
      'odd-name-.api-key',
      'remote.Authorization',
    ]);
    assertClean('channel responses', responses);
    assertClean('events', events);
    await t.audit.flush();
    const config = await readFile(t.configPath, 'utf8');
    assert.match(config, /\$\{secret:everything\.GITHUB_TOKEN\}/);
    for (const [path, text] of await filesUnder(t.dir)) assertClean(path, text);
    assert.ok((await filesUnder(t.dir)).size > 2, 'the data folder (audit, settings) is on disk');
    // Nothing was written to the other hosts' files.
    for (const f of layout) assert.equal(await readFile(join(home, f.path), 'utf8'), f.text);
  });
});
