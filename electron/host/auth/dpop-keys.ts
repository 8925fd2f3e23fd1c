import { DPOP_SUPPORTED_ALGS, DpopSession, type DpopAlg } from '@modelcontextprotocol/client';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import type { TokenVault } from './token-vault.js';

/**
 * Which algorithm we sign DPoP proofs with, best first: ES256 is what RFC 9449 servers are
 * expected to accept; then the other curves, then RSA (bigger keys, slower signatures).
 */
const PREFERENCE: readonly DpopAlg[] = [
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'PS256',
  'PS384',
  'PS512',
  'RS256',
  'RS384',
  'RS512',
];

/** Members of a JWK that hold private key material (EC/OKP `d`; RSA's CRT parts). */
export const PRIVATE_JWK_MEMBERS: readonly string[] = ['d', 'p', 'q', 'dp', 'dq', 'qi'];

/** The vault key of a server's DPoP key pair (a private JWK carrying its `alg`). */
export function dpopVaultKey(serverKey: string): string {
  return `srv.${serverKey}.dpop`;
}

/**
 * The algorithm to bind tokens with, from an authorization server's
 * `dpop_signing_alg_values_supported`: ES256 if offered, else the first asymmetric one we can
 * sign with. `none`, symmetric and unknown values never qualify; no list (or an empty one)
 * means the server does not do DPoP, so the sign-in stays with bearer tokens.
 */
export function chooseDpopAlg(advertised: unknown): DpopAlg | undefined {
  if (!Array.isArray(advertised)) return undefined;
  return PREFERENCE.find((alg) => advertised.includes(alg));
}

function isDpopAlg(value: unknown): value is DpopAlg {
  return typeof value === 'string' && (DPOP_SUPPORTED_ALGS as readonly string[]).includes(value);
}

/**
 * The DPoP key pairs of remote servers, one per server identity. The private key is kept as a
 * JWK in the vault (the OS keychain) and nowhere else: it is generated extractable only long
 * enough to be stored, and what signs proofs in memory is a non-extractable import of it.
 * A session (key plus the per-origin nonces servers handed out) is cached per server, so
 * reconnects keep their nonces and do not read the keychain again.
 */
export class DpopKeys {
  private readonly sessions = new Map<string, Promise<DpopSession | undefined>>();
  private readonly creating = new Map<string, Promise<DpopSession>>();

  constructor(private readonly vault: TokenVault) {}

  /** The server's key, when one is stored; never creates one. */
  existing(serverKey: string): Promise<DpopSession | undefined> {
    let session = this.sessions.get(serverKey);
    if (!session) {
      session = this.load(serverKey);
      this.remember(serverKey, session);
    }
    return session;
  }

  /**
   * The server's key, generating and storing one (signing with `alg`) on first use, or when
   * the stored one signs with an algorithm the authorization server no longer accepts.
   */
  async ensure(serverKey: string, alg: DpopAlg, accepted: readonly string[]): Promise<DpopSession> {
    const pending = this.existing(serverKey);
    const current = await pending;
    // Another request replaced the key while this one waited: judge the newer one instead.
    if (this.sessions.has(serverKey) && this.sessions.get(serverKey) !== pending)
      return this.ensure(serverKey, alg, accepted);
    if (current && accepted.includes(current.alg)) return current;
    // Two requests at once must not mint two keys: the second takes the first one's.
    const inflight = this.creating.get(serverKey);
    if (inflight) return inflight;
    const created = this.create(serverKey, alg).finally(() => this.creating.delete(serverKey));
    this.creating.set(serverKey, created);
    this.remember(serverKey, created);
    return created;
  }

  /** Delete the server's key (sign-out): tokens bound to it can never be used again. */
  async remove(serverKey: string): Promise<void> {
    this.sessions.delete(serverKey);
    await this.vault.delete(dpopVaultKey(serverKey));
  }

  private remember(serverKey: string, session: Promise<DpopSession | undefined>): void {
    this.sessions.set(serverKey, session);
    // A failed keychain call is not remembered: the next request asks again.
    session.catch(() => {
      if (this.sessions.get(serverKey) === session) this.sessions.delete(serverKey);
    });
  }

  private async load(serverKey: string): Promise<DpopSession | undefined> {
    const text = await this.vault.get(dpopVaultKey(serverKey));
    if (text === undefined) return undefined;
    try {
      const jwk = JSON.parse(text) as JWK;
      if (!isDpopAlg(jwk.alg) || typeof jwk.d !== 'string') throw new Error('not a private DPoP key');
      return await sessionOf(jwk, jwk.alg);
    } catch {
      // A damaged entry is as good as none: a new key (and sign-in) replaces it.
      await this.vault.delete(dpopVaultKey(serverKey));
      return undefined;
    }
  }

  private async create(serverKey: string, alg: DpopAlg): Promise<DpopSession> {
    const pair = await generateKeyPair(alg, { extractable: true });
    const jwk = { ...(await exportJWK(pair.privateKey)), alg };
    await this.vault.set(dpopVaultKey(serverKey), JSON.stringify(jwk));
    return sessionOf(jwk, alg);
  }
}

/** A signing session over a private JWK, imported non-extractable. */
async function sessionOf(jwk: JWK, alg: DpopAlg): Promise<DpopSession> {
  const privateKey = await importJWK(jwk, alg, { extractable: false });
  const pub: JWK = Object.fromEntries(
    Object.entries(jwk).filter(([k]) => !PRIVATE_JWK_MEMBERS.includes(k) && k !== 'alg'),
  );
  const publicKey = await importJWK(pub, alg);
  if (!(privateKey instanceof CryptoKey) || !(publicKey instanceof CryptoKey))
    throw new Error('the DPoP key did not import as a CryptoKey');
  // The proof's `jwk` header carries exactly the public members WebCrypto exports.
  const publicJwk = await exportJWK(publicKey);
  const thumbprint = await calculateJwkThumbprint(publicJwk, 'sha256');
  return DpopSession.create({ keyPair: { privateKey, publicKey, publicJwk, thumbprint, alg } });
}
