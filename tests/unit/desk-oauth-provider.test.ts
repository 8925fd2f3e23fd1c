/**
 * DeskOAuthProvider is the SDK's storage and browser hand-off: what it keeps, under which
 * keys, per server and per issuer, and what sign-out forgets. The vault is the in-memory one
 * (the keychain-backed vault is the same SecretStore code, tested against gnome-keyring in
 * tests/integration/keychain.test.ts).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DeskOAuthProvider } from '../../electron/host/auth/desk-oauth-provider.js';
import { memoryTokenVault, type TokenVault } from '../../electron/host/auth/token-vault.js';

function provider(
  vault: TokenVault,
  extra: Partial<ConstructorParameters<typeof DeskOAuthProvider>[0]> = {},
) {
  let redirect: string | undefined = 'http://127.0.0.1:50123/callback';
  const opened: URL[] = [];
  const p = new DeskOAuthProvider({
    serverId: 'docs',
    serverUrl: 'https://mcp.example.com/mcp',
    vault,
    redirectUrl: () => redirect,
    onRedirect: (url) => {
      opened.push(url);
    },
    ...extra,
  });
  return { p, opened, setRedirect: (r: string | undefined) => (redirect = r) };
}

const TOKENS = { access_token: 'at-1', token_type: 'Bearer', refresh_token: 'rt-1', expires_in: 3600 };

describe('DeskOAuthProvider', () => {
  it('keeps tokens, verifier and discovery per server, and a second server sees none of them', async () => {
    const vault = memoryTokenVault();
    const { p } = provider(vault);
    await p.saveTokens(TOKENS);
    await p.saveCodeVerifier('verifier-1');
    await p.saveDiscoveryState({ authorizationServerUrl: 'https://as.example.com' });
    assert.deepEqual(await p.tokens(), TOKENS);
    assert.equal(await p.codeVerifier(), 'verifier-1');
    assert.equal(await p.hasTokens(), true);
    const other = new DeskOAuthProvider({
      serverId: 'other',
      serverUrl: 'https://mcp.example.com/mcp',
      vault,
      redirectUrl: () => undefined,
      onRedirect: () => undefined,
    });
    assert.equal(await other.tokens(), undefined);
    await assert.rejects(other.codeVerifier(), /no PKCE code verifier/);
  });

  it("keys client registrations by issuer, so one server's client id is never offered to another", async () => {
    const vault = memoryTokenVault();
    const { p } = provider(vault);
    const info = { client_id: 'c-at-as1', redirect_uris: ['http://127.0.0.1:50123/callback'] };
    await p.saveClientInformation(info, { issuer: 'https://as1.example.com' });
    assert.deepEqual(await p.clientInformation({ issuer: 'https://as1.example.com' }), info);
    assert.equal(await p.clientInformation({ issuer: 'https://as2.example.com' }), undefined);
    assert.equal(await p.clientInformation(), undefined, 'no issuer, no credential');
  });

  it('reuses a loopback registration on another port (RFC 8252 §7.3) but not for another path', async () => {
    const vault = memoryTokenVault();
    const { p, setRedirect } = provider(vault);
    await p.saveClientInformation(
      { client_id: 'c1', redirect_uris: ['http://127.0.0.1:50123/callback'] },
      { issuer: 'https://as.example.com' },
    );
    setRedirect('http://127.0.0.1:61000/callback');
    assert.equal((await p.clientInformation({ issuer: 'https://as.example.com' }))?.client_id, 'c1');
    setRedirect('http://127.0.0.1:61000/other');
    assert.equal(
      await p.clientInformation({ issuer: 'https://as.example.com' }),
      undefined,
      'registered again instead',
    );
  });

  it('a pre-registered client is used as entered and never replaced, and turns CIMD off', async () => {
    const vault = memoryTokenVault();
    const { p } = provider(vault, {
      preRegistered: { clientId: 'desk', clientSecret: 's3cret' },
      clientMetadataUrl: 'https://mcpdesk.dev/client.json',
    });
    await p.saveClientInformation({ client_id: 'dcr-client' }, { issuer: 'https://as.example.com' });
    assert.deepEqual(await p.clientInformation({ issuer: 'https://as.example.com' }), {
      client_id: 'desk',
      client_secret: 's3cret',
    });
    assert.equal(p.clientMetadataUrl, undefined);
    assert.equal(p.clientMetadata.token_endpoint_auth_method, 'client_secret_basic');
  });

  it("describes a native public client with PKCE and the flow's loopback redirect", () => {
    const { p } = provider(memoryTokenVault(), { clientMetadataUrl: 'https://mcpdesk.dev/client.json' });
    const m = p.clientMetadata;
    assert.deepEqual(m.redirect_uris, ['http://127.0.0.1:50123/callback']);
    assert.equal(m.token_endpoint_auth_method, 'none');
    assert.equal(m.application_type, 'native');
    assert.equal(p.clientMetadataUrl, 'https://mcpdesk.dev/client.json');
  });

  it('hands the authorization URL over, and makes a fresh state each time', async () => {
    const { p, opened } = provider(memoryTokenVault());
    await p.redirectToAuthorization(new URL('https://as.example.com/authorize?x=1'));
    assert.equal(opened[0]?.href, 'https://as.example.com/authorize?x=1');
    const a = p.state();
    const b = p.state();
    assert.notEqual(a, b);
    assert.equal(p.lastState, b);
  });

  it('sign-out forgets tokens, verifier and discovery; a damaged entry reads as none', async () => {
    const vault = memoryTokenVault();
    const { p } = provider(vault);
    await p.saveTokens(TOKENS);
    await p.saveCodeVerifier('v');
    await p.signOut();
    assert.equal(await p.tokens(), undefined);
    await assert.rejects(p.codeVerifier());
    await p.saveTokens(TOKENS);
    await p.invalidateCredentials('tokens');
    assert.equal(await p.hasTokens(), false);
  });

  it('stores nothing under a key that names the server URL or the issuer in clear', async () => {
    const keys: string[] = [];
    const inner = memoryTokenVault();
    const vault: TokenVault = {
      get: (k) => inner.get(k),
      set: (k, v) => {
        keys.push(k);
        return inner.set(k, v);
      },
      delete: (k) => inner.delete(k),
    };
    const { p } = provider(vault);
    await p.saveTokens(TOKENS);
    await p.saveClientInformation({ client_id: 'c' }, { issuer: 'https://as.example.com' });
    for (const k of keys) {
      assert.match(k, /^[A-Za-z0-9_.-]{1,100}$/, 'a valid keychain entry name');
      assert.ok(!k.includes('example.com'));
    }
  });
});
