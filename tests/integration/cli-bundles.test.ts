/**
 * `mcp-desk install FILE.mcpb --set …` and `mcp-desk uninstall NAME` as a person runs them:
 * the CLI from source against a throwaway data folder and keychain service (the real keychain,
 * which npm test provides: scripts/keyring-session.mjs). A missing required value is named; --set values
 * reach the server; the sensitive one is in the keychain only; uninstall removes it all.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { KeychainSecretStore } from '../../electron/host/stores/secret-store.js';
import { runCli } from '../helpers/cli-runner.js';
import { CleanupStack } from '../helpers/host-harness.js';
import { buildFixtureBundle, FIXTURE_BUNDLE } from '../helpers/mcpb-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';
import { checkKeychain, requireKeychain } from '../helpers/keychain-check.js';

const SERVICE = `MCP Desk cli bundles ${randomBytes(4).toString('hex')}`;
const TOKEN = `cli-token-${randomBytes(8).toString('hex')}`;
const store = new KeychainSecretStore({ service: SERVICE });
const { problem, skip } = await checkKeychain(store);

describe('mcp-desk install / uninstall', { timeout: 180_000, skip }, () => {
  const stack = new CleanupStack();
  after(async () => {
    for (const n of await store.names()) await store.delete(n);
    await stack.run();
  });

  it('installs with --set, reports it, and uninstalls cleanly', async () => {
    requireKeychain(problem);
    const dir = await tempDir(stack);
    const data = join(dir, 'data');
    const env = { MCP_DESK_DATA_DIR: data, MCP_DESK_KEYCHAIN_SERVICE: SERVICE };
    const file = await buildFixtureBundle(dir, '1.0.0');

    const missing = await runCli(['install', file, '--set', 'greeting=hi'], env);
    assert.equal(missing.code, 1, missing.stderr);
    assert.match(missing.stderr, /API token \(api_token\) is required/);
    assert.deepEqual(await readdir(data).catch(() => []), [], 'a refused install writes nothing');

    const bad = await runCli(
      ['install', file, '--set', 'greeting=hi', '--set', `api_token=${TOKEN}`, '--set', 'limit=99'],
      env,
    );
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /Limit \(limit\) must be at most 10/);

    const run = await runCli(
      ['install', file, '--set', 'greeting=hello cli', '--set', `api_token=${TOKEN}`, '--json'],
      env,
    );
    assert.equal(run.code, 0, run.stderr);
    const printed = JSON.parse(run.stdout.trim()) as {
      preview: { name: string; tools: { name: string }[] };
      installed: { serverId: string; version: string };
      state: string;
    };
    assert.equal(printed.preview.name, FIXTURE_BUNDLE);
    assert.deepEqual(printed.installed, { serverId: FIXTURE_BUNDLE, name: FIXTURE_BUNDLE, version: '1.0.0' });
    assert.match(printed.state, /connected/);

    const call = await runCli(['call', FIXTURE_BUNDLE, 'show-config'], env);
    assert.equal(call.code, 0, call.stderr);
    const shown = JSON.parse(call.stdout) as Record<string, unknown>;
    assert.equal(shown.greeting, 'hello cli');
    assert.equal(shown.token, 'set');
    assert.equal(shown.limit, '5');

    const config = await readFile(join(data, 'mcp-servers.json'), 'utf8');
    assert.ok(!config.includes(TOKEN));
    assert.equal(await store.get('server.mcpb.desk-fixture.api_token'), TOKEN);
    for (const out of [missing, bad, run, call]) assert.ok(!(out.stdout + out.stderr).includes(TOKEN));

    const text = await runCli(['install', file, '--set', 'greeting=again'], env);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /Desk Fixture 1\.0\.0 \(update from 1\.0\.0\) by MCP Desk tests/);
    assert.match(text.stdout, /api_token: string, required, sensitive \(keychain\)/);
    assert.match(text.stdout, /updated desk-fixture 1\.0\.0 → 1\.0\.0 as server "desk-fixture"/);

    const gone = await runCli(['uninstall', FIXTURE_BUNDLE], env);
    assert.equal(gone.code, 0, gone.stderr);
    assert.match(gone.stdout, /uninstalled desk-fixture/);
    assert.doesNotMatch(await readFile(join(data, 'mcp-servers.json'), 'utf8'), /desk-fixture/);
    assert.deepEqual(await readdir(join(data, 'bundles')).catch(() => []), []);
    assert.equal(await store.get('server.mcpb.desk-fixture.api_token'), undefined);
    const again = await runCli(['uninstall', FIXTURE_BUNDLE], env);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /no installed bundle named "desk-fixture"/);
  });
});
