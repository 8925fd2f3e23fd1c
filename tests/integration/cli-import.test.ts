/**
 * `mcp-desk import` and `mcp-desk export` (issue 14 items 2 and 3) as a person runs them: a
 * throwaway HOME with Claude Desktop's file, a throwaway data folder and keychain service.
 * Listing, a dry run that changes nothing, the import (secrets to the keychain, the servers to
 * the data folder's list, an audit record), a re-run that adds nothing twice, the exit codes,
 * and the snippet. Needs the Secret Service (npm test starts one: scripts/keyring-session.mjs).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SERVER_SECRET_PREFIX } from '../../electron/host/stores/server-secrets.js';
import { KeychainSecretStore } from '../../electron/host/stores/secret-store.js';
import { runCli, type CliRun } from '../helpers/cli-runner.js';
import { claudeDesktopFile, writeFakeHome, type HostFile } from '../helpers/fake-hosts.js';
import { CleanupStack, nodeServer, SERVERS, tempDir } from '../helpers/host-harness.js';
import { KEYCHAIN_HOWTO } from '../helpers/keychain-check.js';

const TOKEN = `ghp_${randomBytes(12).toString('hex')}`;
const SERVICE = `MCP Desk cli import test ${randomBytes(6).toString('hex')}`;

const skipReason =
  process.platform === 'linux' && !process.env.DBUS_SESSION_BUS_ADDRESS
    ? `no Secret Service session: ${KEYCHAIN_HOWTO}`
    : undefined;

describe('mcp-desk import / export', { timeout: 120_000, skip: skipReason }, () => {
  const stack = new CleanupStack();
  let home: string;
  let emptyHome: string;
  let dataDir: string;
  let layout: HostFile[];
  const store = new KeychainSecretStore({ service: SERVICE });
  const configPath = () => join(dataDir, 'mcp-servers.json');

  const cli = (args: string[], homeDir = home): Promise<CliRun> =>
    runCli(args, {
      HOME: homeDir,
      XDG_CONFIG_HOME: join(homeDir, '.config'),
      MCP_DESK_DATA_DIR: dataDir,
      MCP_DESK_KEYCHAIN_SERVICE: SERVICE,
    });
  const clean = (r: CliRun) =>
    assert.ok(!`${r.stdout}${r.stderr}`.includes(TOKEN), 'the CLI printed the token');

  before(async () => {
    home = await tempDir(stack);
    emptyHome = await tempDir(stack);
    dataDir = join(await tempDir(stack), 'data');
    layout = [
      claudeDesktopFile({
        github: { ...nodeServer(SERVERS.everything, ['stdio']), env: { GITHUB_TOKEN: TOKEN } },
        'two words': nodeServer(SERVERS.crash),
        broken: { args: [] },
      }),
    ];
    writeFakeHome(home, layout);
    stack.defer(async () => {
      for (const n of await store.names()) await store.delete(n).catch(() => false);
    });
  });
  after(() => stack.run());

  it('--list shows the hosts found with their files and server names', async () => {
    const text = await cli(['import', '--list']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^claude-desktop\tClaude Desktop$/m);
    assert.match(text.stdout, /claude_desktop_config\.json \(user\)/);
    assert.match(text.stdout, /^ {4}two words$/m);
    const json = await cli(['import', '--list', '--json']);
    const parsed = JSON.parse(json.stdout) as {
      hosts: { id: string; files: { servers: { sourceName: string }[] }[] }[];
    };
    assert.deepEqual(
      parsed.hosts.map((h) => [h.id, h.files[0]?.servers.map((s) => s.sourceName)]),
      [['claude-desktop', ['github', 'two words', 'broken']]],
    );
    clean(json);
    const none = await cli(['import', '--list'], emptyHome);
    assert.equal(none.code, 0);
    assert.match(none.stdout, /No other MCP apps found on this computer/);
    assert.match(none.stdout, /claude_desktop_config\.json/);
  });

  it('bad usage exits 2 and names the choices', async () => {
    const unknown = await cli(['import', '--from', 'notepad']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /claude-desktop, claude-code, vscode, cursor/);
    const format = await cli(['export', '--to', 'notepad']);
    assert.equal(format.code, 2);
    assert.match(format.stderr, /claude-desktop, vscode, cursor, gemini-cli, claude-code/);
  });

  it('--dry-run says what would happen and changes nothing', async () => {
    const r = await cli(['import', '--from', 'claude-desktop', '--dry-run']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^would add\tgithub from /m);
    assert.match(
      r.stdout,
      /would move env\.GITHUB_TOKEN to the keychain as \$\{secret:github\.GITHUB_TOKEN\}/,
    );
    assert.match(r.stdout, /^skipped\tbroken: server "broken"/m);
    clean(r);
    assert.ok(!existsSync(configPath()) || !readFileSync(configPath(), 'utf8').includes('github'));
    assert.equal(await store.get(`${SERVER_SECRET_PREFIX}github.GITHUB_TOKEN`), undefined);
  });

  it('--from imports into the data folder, the secret only into the keychain', async () => {
    const r = await cli(['import', '--from', 'claude-desktop', '--json']);
    assert.equal(r.code, 0, r.stderr);
    clean(r);
    const out = JSON.parse(r.stdout) as { added: { name: string }[]; skipped: { name: string }[] };
    assert.deepEqual(
      out.added.map((a) => a.name),
      ['github', 'two words'],
    );
    assert.deepEqual(
      out.skipped.map((s) => s.name),
      ['broken'],
    );
    const saved = readFileSync(configPath(), 'utf8');
    assert.ok(!saved.includes(TOKEN), 'mcp-servers.json holds no literal');
    assert.match(saved, /\$\{secret:github\.GITHUB_TOKEN\}/);
    assert.equal(await store.get(`${SERVER_SECRET_PREFIX}github.GITHUB_TOKEN`), TOKEN);
    const auditDir = join(dataDir, 'audit');
    const audit = readdirSync(auditDir)
      .map((f) => readFileSync(join(auditDir, f), 'utf8'))
      .join('');
    assert.match(audit, /"kind":"import"/);
    assert.ok(!audit.includes(TOKEN), 'the audit record names, never values');
    for (const f of layout)
      assert.equal(readFileSync(join(home, f.path), 'utf8'), f.text, 'source untouched');
  });

  it('a re-run adds nothing twice', async () => {
    const r = await cli(['import', '--from', 'claude-desktop']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^skipped\tgithub-claude-desktop: already here as "github"/m);
    assert.match(r.stdout, /^0 added to /m);
  });

  it('export prints the snippet with references; notes go to stderr', async () => {
    const r = await cli(['export', '--to', 'claude-desktop', '--server', 'github']);
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout) as { mcpServers: Record<string, { env: Record<string, string> }> };
    assert.deepEqual(Object.keys(doc.mcpServers), ['github']);
    assert.equal(doc.mcpServers.github?.env.GITHUB_TOKEN, '${secret:github.GITHUB_TOKEN}');
    assert.match(r.stderr, /paste into/);
    clean(r);
    const missing = await cli(['export', '--to', 'vscode', '--server', 'nope']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no server named "nope"/);
  });
});
