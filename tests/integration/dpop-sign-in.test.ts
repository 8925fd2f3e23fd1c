/**
 * DPoP key custody through the real host and the real OS keychain (gnome-keyring in the
 * private D-Bus session npm test starts, scripts/keyring-session.mjs): a sign-in to an OAuth fixture whose
 * authorization server (oidc-provider) issues DPoP-bound tokens and whose MCP server takes
 * only DPoP proofs, both demanding a nonce first. The private key lands in the keychain and
 * nowhere else (data folder files, config, logs, traces, the audit file, events and answers
 * the renderer gets are scanned for its `d` value); a restart reuses it; a key that went
 * missing means a new sign-in with a new key; signing out deletes it. Without a usable
 * keychain the tests skip with the reason (and fail when CI is set).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { serverKey } from '../../electron/host/auth/desk-oauth-provider.js';
import { dpopVaultKey } from '../../electron/host/auth/dpop-keys.js';
import type { HostServices } from '../../electron/host/compose.js';
import { KeychainSecretStore } from '../../electron/host/stores/secret-store.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-server.js';
import { scriptedSignIn } from '../helpers/scripted-browser.js';
import { CleanupStack, tempDir, textOf, waitForState } from '../helpers/host-harness.js';
import { composeSignInHost, visibleOutputs } from '../helpers/sign-in-host.js';
import { checkKeychain, requireKeychain } from '../helpers/keychain-check.js';

const ID = 'bound';
const SERVICE = `MCP Desk DPoP test ${randomBytes(4).toString('hex')}`;
/** What keychainTokenVault files OAuth entries under for MCP_DESK_KEYCHAIN_SERVICE=SERVICE. */
const keychain = new KeychainSecretStore({ service: `${SERVICE} OAuth` });

const { problem, skip } = await checkKeychain(keychain);

/** Every file under `dir`, as text. */
async function filesUnder(dir: string): Promise<string> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) out.push(await readFile(join(entry.parentPath, entry.name), 'utf8'));
  return out.join('\n');
}

describe('DPoP key custody in the OS keychain', { skip, timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  let as: OAuthFixture;
  let dir: string;
  let t: HostServices;
  const events: string[] = [];
  const opened: string[] = [];
  let keyName = '';

  async function host(): Promise<HostServices> {
    return composeSignInHost(stack, dir, events, {
      env: { ...process.env, MCP_DESK_KEYCHAIN_SERVICE: SERVICE, MCP_DESK_CLIENT_METADATA_URL: '' },
      openExternal: async (url) => {
        opened.push(url);
        void scriptedSignIn(url).catch(() => undefined);
      },
      signIn: { timeoutMs: 30_000 },
    });
  }

  /** The stored key's private `d`, or undefined when the keychain holds no key for the server. */
  async function storedD(): Promise<string | undefined> {
    const text = await keychain.get(keyName);
    return text === undefined ? undefined : (JSON.parse(text) as { d: string }).d;
  }

  before(async () => {
    requireKeychain(problem);
    as = await startOAuthFixture({ dpop: { nonce: true } });
    stack.defer(() => as.close());
    stack.defer(async () => {
      for (const name of await keychain.names()) await keychain.delete(name);
    });
    dir = await tempDir(stack);
    keyName = dpopVaultKey(serverKey(ID, as.mcpUrl));
    t = await host();
  });
  after(() => stack.run());

  it('signs in with a DPoP-bound token whose key is generated into the keychain', async () => {
    await t.host.add(ID, { url: as.mcpUrl });
    await waitForState(t.host, ID, 'auth-required');
    assert.equal(await storedD(), undefined, 'no key before the first sign-in');
    await t.auth.signIn(ID);
    const s = await waitForState(t.host, ID, 'connected');
    assert.deepEqual(s.auth, { kind: 'signed-in' });
    assert.equal(textOf(await t.host.callTool(ID, 'echo', { message: 'bound' })), 'bound');
    assert.ok(await storedD(), 'the private key is in the keychain');
    assert.equal(as.dpopKeys.size, 1, 'one key proved possession at the MCP server');
    assert.ok(as.rsNonceChallenges >= 1, 'the MCP server demanded its nonce, and the retry got through');
    const [jkt] = as.dpopKeys;
    const records = await t.audit.query({ kind: 'auth', serverId: ID });
    const ok = records.find((r) => r.action === 'sign-in-succeeded');
    assert.deepEqual(ok?.details, { binding: 'dpop', jkt });
  });

  it('never lets the private key (or a token or proof) reach files, logs, traces, audit or the renderer', async () => {
    const d = await storedD();
    const whole = await keychain.get(keyName);
    assert.ok(d && whole);
    const secrets = [d, whole, ...as.seenTokens, ...as.seenProofs];
    const files = await filesUnder(dir);
    assert.ok(files.includes('sign-in-succeeded'), 'the scan covers the audit file in the data folder');
    const outputs = [files, ...(await visibleOutputs(t, ID, events))].join('\n');
    for (const s of secrets) assert.ok(!outputs.includes(s), `leaked: ${s.slice(0, 8)}…`);
  });

  it('reuses the same key after a restart, without a browser', async () => {
    const d = await storedD();
    await t.dispose();
    const trips = opened.length;
    t = await host();
    await waitForState(t.host, ID, 'connected');
    assert.equal(textOf(await t.host.callTool(ID, 'echo', { message: 'again' })), 'again');
    assert.equal(opened.length, trips);
    assert.equal(await storedD(), d);
    assert.equal(as.dpopKeys.size, 1);
  });

  it('asks for a new sign-in, and binds a new key, when the key went missing from the keychain', async () => {
    await t.dispose();
    await keychain.delete(keyName);
    t = await host();
    const s = await waitForState(t.host, ID, 'auth-required');
    assert.deepEqual(s.auth, { kind: 'sign-in-needed' });
    await t.auth.signIn(ID);
    await waitForState(t.host, ID, 'connected');
    assert.ok(await storedD(), 'a new key was stored');
    assert.equal(as.dpopKeys.size, 2, 'the new token is bound to a new key');
  });

  it('signing out deletes the key pair from the keychain', async () => {
    await t.auth.signOut(ID);
    assert.equal(await storedD(), undefined);
    assert.deepEqual(
      (await keychain.names()).filter((n) => n.endsWith('.tokens') || n.endsWith('.dpop')),
      [],
    );
    await waitForState(t.host, ID, 'auth-required');
  });
});
