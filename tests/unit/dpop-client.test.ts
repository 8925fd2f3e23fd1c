/**
 * DPoP (RFC 9449, SEP-1932) as the app does it: DeskOAuthProvider hands the SDK a key pair and
 * the SDK's own auth() and fetch middleware (the very pieces the transports compose) sign the
 * proofs. Against a tiny local AS/RS (tests/helpers/dpop-test-server.ts) that verifies every
 * proof with jose: the token request's proof, the resource proof with `ath` and `cnf.jkt`, a
 * nonce retried once and never twice, and plain bearer where DPoP is not advertised.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { auth, withDpopFromProvider, type FetchLike } from '@modelcontextprotocol/client';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { DeskOAuthProvider, serverKey } from '../../electron/host/auth/desk-oauth-provider.js';
import { chooseDpopAlg, DpopKeys } from '../../electron/host/auth/dpop-keys.js';
import { redactingVault } from '../../electron/host/auth/redacting-vault.js';
import { memoryTokenVault, type TokenVault } from '../../electron/host/auth/token-vault.js';
import { Redactor } from '../../electron/host/util/redact.js';
import { startDpopServer, type DpopServerOptions, type DpopTestServer } from '../helpers/dpop-test-server.js';

const servers: DpopTestServer[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

interface Signed {
  server: DpopTestServer;
  provider: DeskOAuthProvider;
  vault: TokenVault;
  redactor: Redactor;
  /** The fetch the Streamable HTTP transport builds from this provider. */
  rsFetch: FetchLike;
}

/** Runs the SDK's authorization-code flow against the server, as the app's sign-in does. */
async function signIn(options: DpopServerOptions): Promise<Signed> {
  const server = await startDpopServer(options);
  servers.push(server);
  const redactor = new Redactor();
  const vault = redactingVault(memoryTokenVault(), redactor);
  let state: string | undefined;
  const provider = new DeskOAuthProvider({
    serverId: 'remote',
    serverUrl: server.mcpUrl,
    vault,
    redirectUrl: () => 'http://127.0.0.1:50999/callback',
    onRedirect: (url) => {
      state = url.searchParams.get('state') ?? undefined;
    },
  });
  assert.equal(await auth(provider, { serverUrl: server.mcpUrl }), 'REDIRECT');
  assert.ok(state, 'the SDK sent the browser to the authorization endpoint');
  assert.equal(await auth(provider, { serverUrl: server.mcpUrl, authorizationCode: 'code-1' }), 'AUTHORIZED');
  return { server, provider, vault, redactor, rsFetch: withDpopFromProvider(provider)(fetch) };
}

/** A request as the transport sends it: its own `Authorization: Bearer` from provider.tokens(). */
async function callMcp(s: Signed): Promise<Response> {
  const token = (await s.provider.tokens())?.access_token;
  return s.rsFetch(s.server.mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
  });
}

const tokenRequests = (s: DpopTestServer) => s.seen.filter((r) => r.path === '/token');
const mcpRequests = (s: DpopTestServer) => s.seen.filter((r) => r.path === '/mcp');

describe('DPoP client (SDK proofs over DeskOAuthProvider keys)', () => {
  it('picks ES256 when offered, another asymmetric alg otherwise, and never none or HMAC', () => {
    assert.equal(chooseDpopAlg(['RS256', 'ES256', 'none']), 'ES256');
    assert.equal(chooseDpopAlg(['RS256', 'PS256']), 'PS256');
    assert.equal(chooseDpopAlg(['EdDSA']), 'EdDSA');
    assert.equal(chooseDpopAlg(['none']), undefined);
    assert.equal(chooseDpopAlg(['HS256']), undefined);
    assert.equal(chooseDpopAlg([]), undefined);
    assert.equal(chooseDpopAlg(undefined), undefined);
  });

  it('mints one key for a server when requests ask at once, and a new one when the alg is no longer accepted', async () => {
    const keys = new DpopKeys(memoryTokenVault());
    const [a, b] = await Promise.all([
      keys.ensure('k1', 'ES256', ['ES256']),
      keys.ensure('k1', 'ES256', ['ES256']),
    ]);
    assert.equal(a, b);
    assert.equal(await keys.existing('k1'), a);
    const rsa = await keys.ensure('k1', 'PS256', ['PS256']);
    assert.equal(rsa.alg, 'PS256');
    assert.notEqual(rsa.thumbprint, a.thumbprint);
  });

  it('signs the token request with a public-key proof and stores a DPoP-bound token', async () => {
    const s = await signIn({ algs: ['RS256', 'ES256', 'none'] });
    const [req] = tokenRequests(s.server);
    assert.ok(req?.dpop, 'the token request carried a DPoP header');
    assert.ok(req.verdict?.ok, `the AS accepted the proof: ${JSON.stringify(req.verdict)}`);
    const header = decodeProtectedHeader(req.dpop);
    assert.equal(header.typ, 'dpop+jwt');
    assert.equal(header.alg, 'ES256');
    assert.equal(header.jwk?.kty, 'EC');
    assert.equal('d' in (header.jwk ?? {}), false, 'no private member in the proof header');
    const claims = decodeJwt(req.dpop);
    assert.equal(claims.htm, 'POST');
    assert.equal(claims.htu, s.server.tokenUrl);
    assert.equal(claims.ath, undefined, 'a token request proof carries no ath');
    assert.equal(typeof claims.jti, 'string');
    const tokens = await s.provider.tokens();
    assert.equal(tokens?.token_type, 'DPoP');
    const binding = await s.provider.tokenBinding();
    assert.deepEqual(binding, { kind: 'dpop', jkt: req.verdict.jkt });
    assert.equal((decodeJwt(tokens.access_token).cnf as { jkt: string }).jkt, req.verdict.jkt);
  });

  it('presents the token as DPoP with a fresh proof (ath, cnf.jkt) on every resource request', async () => {
    const s = await signIn({ algs: ['ES256'] });
    for (let i = 0; i < 3; i++) {
      const res = await callMcp(s);
      assert.equal(res.status, 200, JSON.stringify(await res.clone().json()));
      assert.equal(((await res.json()) as { scheme: string }).scheme, 'DPoP');
    }
    const calls = mcpRequests(s.server);
    assert.equal(calls.length, 3);
    for (const call of calls) {
      assert.match(call.authorization ?? '', /^DPoP /);
      assert.ok(call.verdict?.ok, JSON.stringify(call.verdict));
      assert.equal(typeof decodeJwt(call.dpop ?? '').ath, 'string');
    }
    const jtis = new Set(calls.map((c) => decodeJwt(c.dpop ?? '').jti));
    assert.equal(jtis.size, 3, 'no proof is reused');
  });

  it('retries a token request and a resource request once with the nonce each server gave', async () => {
    const s = await signIn({ algs: ['ES256'], asNonce: 'as-nonce-1', rsNonce: 'rs-nonce-1' });
    const tokens = tokenRequests(s.server);
    assert.deepEqual(
      tokens.map((r) => r.status),
      [400, 200],
    );
    assert.equal(decodeJwt(tokens[1]?.dpop ?? '').nonce, 'as-nonce-1');
    const res = await callMcp(s);
    assert.equal(res.status, 200);
    const calls = mcpRequests(s.server);
    assert.deepEqual(
      calls.map((r) => r.status),
      [401, 200],
    );
    assert.equal(decodeJwt(calls[1]?.dpop ?? '').nonce, 'rs-nonce-1');
    // Remembered per origin: the next request carries the nonce at once.
    assert.equal((await callMcp(s)).status, 200);
    assert.equal(mcpRequests(s.server).length, 3);
  });

  it('retries a nonce challenge exactly once, not twice, when the server keeps moving the nonce', async () => {
    const s = await signIn({ algs: ['ES256'], rotateRsNonce: true });
    const res = await callMcp(s);
    assert.equal(res.status, 401, 'the second challenge is handed back, not chased');
    assert.equal(mcpRequests(s.server).length, 2);
  });

  it('stays with bearer tokens, and makes no key, where the server does not advertise DPoP', async () => {
    for (const algs of [undefined, [], ['none'], ['HS256']]) {
      const s = await signIn(algs ? { algs } : {});
      assert.equal(tokenRequests(s.server)[0]?.dpop, undefined, `no proof for ${JSON.stringify(algs)}`);
      assert.equal((await s.provider.tokens())?.token_type, 'Bearer');
      assert.deepEqual(await s.provider.tokenBinding(), { kind: 'bearer' });
      const res = await callMcp(s);
      assert.equal(((await res.json()) as { scheme: string }).scheme, 'Bearer');
      assert.equal(mcpRequests(s.server)[0]?.dpop, undefined);
      assert.equal(await s.vault.get(`srv.${vaultKeyOf(s)}.dpop`), undefined);
    }
  });

  it('uses an unbound (Bearer) token as bearer even where DPoP was asked for', async () => {
    const s = await signIn({ algs: ['ES256'], unboundToken: true });
    assert.ok(tokenRequests(s.server)[0]?.dpop, 'the token request still carried a proof');
    const res = await callMcp(s);
    assert.equal(((await res.json()) as { scheme: string }).scheme, 'Bearer');
  });

  it('keeps the private key only in the vault, teaches it to the redactor, and signs out with it', async () => {
    const s = await signIn({ algs: ['ES256'] });
    const key = vaultKeyOf(s);
    const stored = await s.vault.get(`srv.${key}.dpop`);
    assert.ok(stored, 'the key pair is in the vault');
    const jwk = JSON.parse(stored) as { d: string; alg: string };
    assert.equal(jwk.alg, 'ES256');
    assert.equal(s.redactor.redactText(`oops ${jwk.d} and ${stored}`).includes(jwk.d), false);
    // A proof never carries it.
    for (const r of s.server.seen) assert.equal(r.dpop?.includes(jwk.d) ?? false, false);
    await s.provider.signOut();
    assert.equal(await s.vault.get(`srv.${key}.dpop`), undefined);
    assert.equal(await s.provider.tokens(), undefined);
  });

  it('drops a DPoP-bound token whose key is gone, so the next 401 asks for a new sign-in', async () => {
    const s = await signIn({ algs: ['ES256'] });
    const key = vaultKeyOf(s);
    await s.vault.delete(`srv.${key}.dpop`);
    // A fresh app start: nothing cached in memory.
    const restarted = new DeskOAuthProvider({
      serverId: 'remote',
      serverUrl: s.server.mcpUrl,
      vault: s.vault,
      dpopKeys: new DpopKeys(s.vault),
      redirectUrl: () => undefined,
      onRedirect: () => undefined,
    });
    assert.equal(await restarted.tokens(), undefined);
    assert.equal(await s.vault.get(`srv.${key}.tokens`), undefined);
  });
});

/** The vault key part of the provider's server (its entries live under `srv.<key>.*`). */
function vaultKeyOf(s: Signed): string {
  return serverKey('remote', s.server.mcpUrl);
}
