/**
 * Issue 29: a machine with no OS keychain (Linux without a Secret Service: a server, a
 * container, WSL) imports servers all the same. This process has no Secret Service (its D-Bus
 * address points nowhere, see tests/helpers/no-keychain.ts) and uses the real keychain store,
 * so every keychain call fails exactly as it does there. An entry without secrets is added
 * and connects without the keychain being asked; an entry with a literal key is added with its
 * `${secret:NAME}` reference unset and says so with the keychain's hint, and the literal is
 * nowhere on disk. Pasted JSON through the router, `mcp-desk import --from` from another app
 * (a child process as a person runs it), the server form's secret calls, and Settings.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { RouteResult } from '../../electron/host/router.js';
import { KeychainSecretStore } from '../../electron/host/stores/secret-store.js';
import type { SecretStatus } from '../../shared/domain/chat.js';
import type { ServerSecretStatus } from '../../shared/domain/server-secrets.js';
import type { ImportResult } from '../../shared/ipc/channels/server-channels.js';
import type { HostError } from '../../shared/ipc/host-error.js';
import { runCli } from '../helpers/cli-runner.js';
import { claudeDesktopFile, writeFakeHome } from '../helpers/fake-hosts.js';
import {
  CleanupStack,
  createTestHost,
  nodeServer,
  SERVERS,
  tempDir,
  waitFor,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';
import {
  dropSecretService,
  filesHolding,
  NO_KEYCHAIN_HINT,
  noKeychainEnv,
  noKeychainSkip,
} from '../helpers/no-keychain.js';

const LITERAL = `sk-nokeychain${randomBytes(12).toString('hex')}`;
const SERVICE = `MCP Desk no-keychain test ${randomBytes(4).toString('hex')}`;
const EVERYTHING = nodeServer(SERVERS.everything, ['stdio']);

if (!noKeychainSkip) dropSecretService();

function ok<T>(r: RouteResult): T {
  assert.ok(r.ok, `expected success, got ${JSON.stringify(r)}`);
  return r.value as T;
}
function failed(r: RouteResult): HostError {
  assert.ok(!r.ok, `expected a failure, got ${JSON.stringify(r).slice(0, 300)}`);
  return r.error;
}

describe('without an OS keychain: imports, the server form and Settings', { skip: noKeychainSkip }, () => {
  const stack = new CleanupStack();
  let t: TestHost;
  const seen: string[] = [];

  before(async () => {
    t = await createTestHost(stack, {
      dataDir: true,
      env: { ...process.env, MCP_DESK_KEYCHAIN_SERVICE: SERVICE },
    });
    t.events.onAny((event, payload) => seen.push(`${event} ${JSON.stringify(payload)}`));
  });
  after(() => stack.run());

  it('really has no keychain here (the real store says so)', async () => {
    const status = await new KeychainSecretStore({ service: SERVICE }).status();
    assert.match(status.keychainError ?? '', NO_KEYCHAIN_HINT);
  });

  it('pasted JSON: the entry without secrets connects; the one with a key is added with it unset', async () => {
    const json = JSON.stringify({
      imported: EVERYTHING,
      keyed: { ...EVERYTHING, env: { OPENAI_API_KEY: LITERAL, DEMO_FLAG: 'on' } },
    });
    const result = ok<ImportResult>(await t.router.handle('servers.import', { json }));
    seen.push(JSON.stringify(result));
    assert.deepEqual(result.added, ['imported', 'keyed']);
    assert.deepEqual(result.skipped, []);
    assert.equal(result.secrets, undefined, 'nothing was stored in a keychain');
    assert.equal(result.notStored?.length, 1);
    const [note] = result.notStored ?? [];
    assert.deepEqual(note?.names, ['keyed.OPENAI_API_KEY']);
    assert.equal(note?.server, 'keyed');
    assert.match(note?.reason ?? '', NO_KEYCHAIN_HINT);
    assert.doesNotMatch(note?.reason ?? '', /server\.keyed/, 'the reason does not name the keychain account');

    await waitForState(t.host, 'imported', 'connected');
    const saved = JSON.parse(await readFile(t.configPath, 'utf8')) as {
      mcpServers: Record<string, { env?: Record<string, string> }>;
    };
    assert.deepEqual(saved.mcpServers.keyed?.env, {
      OPENAI_API_KEY: '${secret:keyed.OPENAI_API_KEY}',
      DEMO_FLAG: 'on',
    });
    const keyed = await waitFor('keyed to fail for its unset secret', () => {
      const s = t.host.list().find((x) => x.id === 'keyed');
      return s?.state.kind === 'failed' ? s.state : undefined;
    });
    assert.equal(keyed.error.code, 'keychain_unavailable');
    assert.match(
      keyed.error.message,
      /\$\{secret:keyed\.OPENAI_API_KEY\}, which is not set — no keychain here/,
    );
    assert.match(keyed.error.message, NO_KEYCHAIN_HINT);

    const list = ok<ServerSecretStatus[]>(await t.router.handle('serverSecrets.list', {}));
    assert.deepEqual(
      list.map((s) => [s.name, s.set, s.usedBy]),
      [['keyed.OPENAI_API_KEY', false, ['keyed']]],
    );
    assert.match(list[0]?.keychainError ?? '', NO_KEYCHAIN_HINT);
    const audit = await t.audit.query({ kind: 'import' });
    assert.deepEqual(audit.at(-1)?.details, {
      added: ['imported', 'keyed'],
      secretsMoved: [],
      secretsNotStored: ['keyed.OPENAI_API_KEY'],
    });
  });

  it("the server form's secret calls: storing says why it cannot, an entry with a reference is added", async () => {
    const set = failed(await t.router.handle('serverSecrets.set', { name: 'formed.TOKEN', value: LITERAL }));
    assert.equal(set.code, 'keychain_unavailable');
    assert.match(set.message, NO_KEYCHAIN_HINT);
    assert.doesNotMatch(set.message, /server\.formed/);
    ok(
      await t.router.handle('servers.add', {
        name: 'formed',
        config: { ...EVERYTHING, env: { TOKEN: '${secret:formed.TOKEN}' } },
      }),
    );
    ok(await t.router.handle('servers.add', { name: 'plain', config: EVERYTHING }));
    await waitForState(t.host, 'plain', 'connected');
    const list = ok<ServerSecretStatus[]>(await t.router.handle('serverSecrets.list', {}));
    const formed = list.find((s) => s.name === 'formed.TOKEN');
    assert.deepEqual([formed?.set, formed?.usedBy], [false, ['formed']]);
    assert.match(formed?.keychainError ?? '', NO_KEYCHAIN_HINT);
  });

  it('Settings: the API key says why it cannot be kept; every other setting still saves', async () => {
    const status = ok<SecretStatus>(await t.router.handle('secrets.status', {}));
    assert.equal(status.geminiApiKey, false);
    assert.match(status.keychainError ?? '', NO_KEYCHAIN_HINT);
    const set = failed(await t.router.handle('secrets.set', { name: 'geminiApiKey', value: LITERAL }));
    assert.equal(set.code, 'keychain_unavailable');
    assert.match(set.message, NO_KEYCHAIN_HINT);
    ok(await t.router.handle('settings.update', { maxTurns: 7 }));
    assert.equal(ok<{ maxTurns: number }>(await t.router.handle('settings.get', {})).maxTurns, 7);
  });

  it('the literal key is nowhere: not on disk, not in an event or answer', async () => {
    assert.deepEqual(await filesHolding([t.dir], LITERAL), []);
    assert.equal(seen.join('\n').includes(LITERAL), false, 'an event or answer holds the literal');
  });
});

describe('without an OS keychain: mcp-desk import --from claude-desktop', { skip: noKeychainSkip }, () => {
  const stack = new CleanupStack();
  let home: string;
  let dataDir: string;
  const cli = (args: string[]) =>
    runCli(args, {
      ...noKeychainEnv(),
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      MCP_DESK_DATA_DIR: dataDir,
      MCP_DESK_KEYCHAIN_SERVICE: SERVICE,
    });

  before(async () => {
    home = await tempDir(stack);
    dataDir = join(await tempDir(stack), 'data');
    writeFakeHome(home, [
      claudeDesktopFile({
        imported: EVERYTHING,
        // Another command: the CLI skips a second entry that launches like the first.
        keyed: { ...nodeServer(SERVERS.modern), env: { GITHUB_TOKEN: `ghp_${LITERAL}` } },
      }),
    ]);
  });
  after(() => stack.run());

  it('adds both: the one without secrets connects, the key is left unset and said so', async () => {
    const run = await cli(['import', '--from', 'claude-desktop']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^added\timported from /m);
    assert.match(run.stdout, /^added\tkeyed from /m);
    assert.match(
      run.stdout,
      /env\.GITHUB_TOKEN taken out but not stored: \$\{secret:keyed\.GITHUB_TOKEN\} is not set — no keychain here/,
    );
    assert.match(run.stdout, NO_KEYCHAIN_HINT);
    assert.match(run.stdout, /2 added to .*, 0 skipped\./);
    assert.match(
      run.stderr,
      /no OS keychain here: keys and tokens are taken out of the entries but not stored/,
    );
    const saved = JSON.parse(await readFile(join(dataDir, 'mcp-servers.json'), 'utf8')) as {
      mcpServers: Record<string, { env?: Record<string, string> }>;
    };
    assert.deepEqual(saved.mcpServers.keyed?.env, { GITHUB_TOKEN: '${secret:keyed.GITHUB_TOKEN}' });

    // The app (here its CLI) starts what was imported: one connects, the other says why not.
    const servers = await cli(['servers', '--json']);
    assert.equal(servers.code, 0, servers.stderr);
    const states = JSON.parse(servers.stdout) as { name: string; state: string; error?: string }[];
    assert.equal(states.find((s) => s.name === 'imported')?.state, 'connected');
    const keyed = states.find((s) => s.name === 'keyed');
    assert.equal(keyed?.state, 'failed');
    assert.match(keyed?.error ?? '', /not set — no keychain here/);

    for (const r of [run, servers]) assert.equal(`${r.stdout}${r.stderr}`.includes(LITERAL), false);
    // The source file is the person's own and keeps its value; nothing of ours holds it.
    assert.deepEqual(await filesHolding([dataDir], LITERAL), []);
  });
});
