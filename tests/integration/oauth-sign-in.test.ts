/**
 * The person-facing OAuth sign-in against a real authorization server (oidc-provider) in
 * front of a real MCP server that wants its JWT access tokens: auth-required, sign in
 * through a scripted browser, tokens in the vault, a restart without a browser, sign out,
 * a forged state, cancel, the attempt budget, and no credential in any output.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HostServices } from '../../electron/host/compose.js';
import { SignInBudget } from '../../electron/host/auth/sign-in-budget.js';
import type { TokenVault } from '../../electron/host/auth/token-vault.js';
import { MemorySecretStore } from '../../electron/host/stores/secret-store.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-server.js';
import { scriptedSignIn, type ScriptedBrowserOptions } from '../helpers/scripted-browser.js';
import {
  CleanupStack,
  rejection,
  summaryOf,
  tempDir,
  textOf,
  waitFor,
  waitForState,
} from '../helpers/host-harness.js';
import { composeSignInHost, visibleOutputs } from '../helpers/sign-in-host.js';

const ID = 'protected';

/** A memory vault that remembers every value it was ever given (for the leak check). */
class RecordingVault implements TokenVault {
  readonly store = new MemorySecretStore();
  readonly everSet: string[] = [];
  get(key: string) {
    return this.store.get(key);
  }
  async set(key: string, value: string) {
    this.everSet.push(value);
    await this.store.set(key, value);
  }
  delete(key: string) {
    return this.store.delete(key);
  }
  async tokenKeys(): Promise<string[]> {
    return (await this.store.names()).filter((k) => k.endsWith('.tokens'));
  }
}

describe('OAuth sign-in to a remote server', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  let as: OAuthFixture;
  let dir: string;
  const vault = new RecordingVault();
  /** What the next browser trip does; tests swap it. */
  let browser: (url: string) => Promise<void>;
  const opened: string[] = [];
  const callbacks: string[] = [];
  const events: string[] = [];

  async function host(budget?: SignInBudget): Promise<HostServices> {
    return composeSignInHost(stack, dir, events, {
      tokenVault: vault,
      // CIMD needs a public https document; the fixture AS does DCR.
      env: { ...process.env, MCP_DESK_CLIENT_METADATA_URL: '' },
      openExternal: async (url) => {
        opened.push(url);
        await browser(url);
      },
      signIn: { timeoutMs: 20_000, ...(budget ? { budget } : {}) },
    });
  }

  /** The scripted person: follows the AS pages now (in the background, as a browser would). */
  function person(opts: ScriptedBrowserOptions = {}): (url: string) => Promise<void> {
    return async (url) => {
      void scriptedSignIn(url, opts).then((r) => callbacks.push(r.callbackUrl));
    };
  }

  let t: HostServices;
  before(async () => {
    as = await startOAuthFixture();
    stack.defer(() => as.close());
    dir = await tempDir(stack);
    t = await host();
  });
  after(() => stack.run());

  it('shows a protected server as needing a sign-in, without opening a browser', async () => {
    await t.host.add(ID, { url: as.mcpUrl });
    const s = await waitForState(t.host, ID, 'auth-required');
    assert.deepEqual(s.auth, { kind: 'sign-in-needed' });
    assert.equal(opened.length, 0);
  });

  it('refuses a callback whose state does not match, and passes no code on', async () => {
    browser = person({ tamper: (u) => (u.searchParams.set('state', 'forged'), u) });
    const e = await rejection(t.auth.signIn(ID));
    assert.equal(e.code, 'sign_in_failed');
    assert.match(e.message, /state mismatch/);
    assert.deepEqual(await vault.tokenKeys(), []);
    const s = await waitForState(t.host, ID, 'auth-required');
    assert.equal(s.auth?.kind, 'failed');
  });

  it('cancels a sign-in under way', async () => {
    browser = async () => undefined;
    const pending = rejection(t.auth.signIn(ID));
    await waitFor('signing in', () =>
      summaryOf(t.host, ID).auth?.kind === 'signing-in' && opened.length === 2 ? true : undefined,
    );
    assert.equal(t.auth.cancel(ID), true);
    assert.equal((await pending).code, 'cancelled');
    const s = await waitForState(t.host, ID, 'auth-required');
    assert.deepEqual(s.auth, { kind: 'sign-in-needed' });
  });

  it('signs in through the browser: connected, tools listed, tokens in the vault', async () => {
    browser = person();
    await t.auth.signIn(ID);
    const s = await waitForState(t.host, ID, 'connected');
    assert.deepEqual(s.auth, { kind: 'signed-in' });
    assert.equal(s.counts.tools, 2);
    assert.equal(textOf(await t.host.callTool(ID, 'echo', { message: 'hi' })), 'hi');
    assert.equal((await vault.tokenKeys()).length, 1);
    const records = await t.audit.query({ kind: 'auth', serverId: ID });
    assert.ok(records.some((r) => r.action === 'sign-in-succeeded'));
  });

  it('never lets a token, code, verifier or secret reach events, traces, logs or the audit log', async () => {
    const secrets = new Set<string>();
    for (const v of vault.everSet) {
      try {
        const parsed = JSON.parse(v) as Record<string, unknown>;
        for (const k of ['access_token', 'refresh_token', 'client_secret'])
          if (typeof parsed[k] === 'string') secrets.add(parsed[k]);
      } catch {
        secrets.add(v); // the PKCE verifier is stored bare
      }
    }
    for (const c of callbacks) secrets.add(new URL(c).searchParams.get('code') ?? '');
    for (const tok of as.seenTokens) secrets.add(tok);
    secrets.delete('');
    assert.ok(secrets.size >= 3, `expected tokens, a code and a verifier, got ${secrets.size}`);
    const outputs = (await visibleOutputs(t, ID, events)).join('\n');
    for (const s of secrets) assert.ok(!outputs.includes(s), `a credential leaked: ${s.slice(0, 6)}…`);
  });

  it('stays signed in across a restart, without a browser', async () => {
    await t.dispose();
    const before = opened.length;
    t = await host();
    const s = await waitForState(t.host, ID, 'connected');
    assert.deepEqual(s.auth, { kind: 'signed-in' });
    assert.equal(opened.length, before);
  });

  it('signs out: tokens gone, sign-in needed', async () => {
    await t.auth.signOut(ID);
    assert.deepEqual(await vault.tokenKeys(), []);

    const s = await waitForState(t.host, ID, 'auth-required');
    assert.deepEqual(s.auth, { kind: 'sign-in-needed' });
    const records = await t.audit.query({ kind: 'auth', serverId: ID });
    assert.ok(records.some((r) => r.action === 'signed-out'));
  });

  it('stops a server that refuses every token from looping: one browser trip per sign-in, then the budget', async () => {
    await t.dispose();
    t = await host(new SignInBudget(2, 60_000));
    await waitForState(t.host, ID, 'auth-required');
    as.refuseAll = true;
    browser = person();
    const start = opened.length;
    for (let i = 0; i < 2; i++) {
      const e = await rejection(t.auth.signIn(ID));
      assert.equal(e.code, 'sign_in_failed', e.message);
    }
    assert.equal(opened.length - start, 2);
    const e = await rejection(t.auth.signIn(ID));
    assert.equal(e.code, 'sign_in_limit');
    assert.equal(opened.length - start, 2);
    assert.equal(summaryOf(t.host, ID).auth?.kind, 'failed');
    as.refuseAll = false;
  });
});
