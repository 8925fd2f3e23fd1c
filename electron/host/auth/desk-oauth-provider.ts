import { createHash, randomUUID } from 'node:crypto';
import type {
  DpopSession,
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { chooseDpopAlg, DpopKeys } from './dpop-keys.js';
import type { TokenVault } from './token-vault.js';

/** A client registered with the authorization server outside the app (entered by a person). */
export interface PreRegisteredClient {
  clientId: string;
  clientSecret?: string;
  /** The authorization server it was registered with: the SDK then refuses to send it anywhere else (SEP-2352). */
  issuer?: string;
}

export interface DeskOAuthProviderOptions {
  /** The server's id: tokens, verifier and discovery state are kept per server and URL. */
  serverId: string;
  serverUrl: string;
  vault: TokenVault;
  /** The loopback callback URL of the sign-in in progress; undefined when none is running. */
  redirectUrl: () => string | undefined;
  /** Send the person (or the headless follower) to the authorization server. */
  onRedirect: (url: URL) => void | Promise<void>;
  /** A Client ID Metadata Document URL (https, with a path); the SDK prefers it where the AS supports it. */
  clientMetadataUrl?: string;
  preRegistered?: PreRegisteredClient;
  clientName?: string;
  /** Scopes to ask for when neither the server's challenge nor its metadata names any. */
  scope?: string;
  /** DPoP key pairs, shared by every provider of one app so nonces and keys outlive a reconnect. */
  dpopKeys?: DpopKeys;
}

/** How the stored access token is presented: bound to our DPoP key (with its thumbprint) or bearer. */
export type TokenBinding = { kind: 'dpop'; jkt: string } | { kind: 'bearer' } | { kind: 'none' };

function isDpopBound(tokens: StoredOAuthTokens | undefined): boolean {
  return tokens?.token_type?.toLowerCase() === 'dpop';
}

type Stored = Record<string, unknown>;

/** The key part for one server, valid in the vault's key alphabet and free of the URL itself. */
export function serverKey(serverId: string, serverUrl: string): string {
  return createHash('sha256').update(`${serverId}\n${serverUrl}`).digest('hex').slice(0, 24);
}

function issuerKey(issuer: string): string {
  return createHash('sha256').update(issuer).digest('hex').slice(0, 24);
}

/** The same redirect target, where a loopback URI's port may differ (RFC 8252 §7.3). */
function sameRedirect(a: string, b: string): boolean {
  try {
    const x = new URL(a);
    const y = new URL(b);
    const loopback = (u: URL) =>
      u.hostname === '127.0.0.1' || u.hostname === '[::1]' || u.hostname === 'localhost';
    if (loopback(x) && loopback(y))
      return x.protocol === y.protocol && x.hostname === y.hostname && x.pathname === y.pathname;
    return x.href === y.href;
  } catch {
    return false;
  }
}

/**
 * The SDK's OAuthClientProvider over our token vault. The SDK drives the flow (discovery,
 * registration, PKCE, token exchange, refresh, step-up, RFC 9207 `iss` checks); this class is
 * its storage and its hand-off to the browser. Client registrations are keyed by the
 * authorization server's issuer, so a client id obtained from one server is never sent to
 * another; everything else is keyed by server.
 */
export class DeskOAuthProvider implements OAuthClientProvider {
  /** The `state` of the last authorization URL; the callback must bring it back. */
  lastState: string | undefined;
  readonly clientMetadataUrl: string | undefined;
  private readonly key: string;
  private readonly dpopKeys: DpopKeys;
  /** The authorization server's DPoP algorithms as last discovered. */
  private dpopAlgs?: Promise<string[] | undefined>;

  constructor(private readonly opts: DeskOAuthProviderOptions) {
    this.key = serverKey(opts.serverId, opts.serverUrl);
    this.clientMetadataUrl = opts.preRegistered ? undefined : opts.clientMetadataUrl;
    this.dpopKeys = opts.dpopKeys ?? new DpopKeys(opts.vault);
  }

  get redirectUrl(): string | undefined {
    return this.opts.redirectUrl();
  }

  get clientMetadata(): OAuthClientMetadata {
    const redirect = this.opts.redirectUrl();
    return {
      client_name: this.opts.clientName ?? 'MCP Desk',
      redirect_uris: redirect ? [redirect] : [],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A desktop app cannot keep a secret: a public client with PKCE (RFC 8252).
      token_endpoint_auth_method: this.opts.preRegistered?.clientSecret ? 'client_secret_basic' : 'none',
      application_type: 'native',
      ...(this.opts.scope ? { scope: this.opts.scope } : {}),
    };
  }

  state(): string {
    this.lastState = randomUUID();
    return this.lastState;
  }

  async clientInformation(
    ctx?: OAuthClientInformationContext,
  ): Promise<StoredOAuthClientInformation | undefined> {
    const pre = this.opts.preRegistered;
    if (pre)
      return {
        client_id: pre.clientId,
        ...(pre.clientSecret ? { client_secret: pre.clientSecret } : {}),
        ...(pre.issuer ? { issuer: pre.issuer } : {}),
      };
    if (!ctx) return undefined;
    const info = await this.read<StoredOAuthClientInformation>(`client.${issuerKey(ctx.issuer)}`);
    if (!info) return undefined;
    // A registration made for another redirect URI would be refused at the authorization
    // endpoint; register again instead (loopback ports may differ, RFC 8252 §7.3).
    const uris = (info as { redirect_uris?: unknown }).redirect_uris;
    const redirect = this.opts.redirectUrl();
    if (
      redirect &&
      Array.isArray(uris) &&
      uris.length > 0 &&
      !uris.some((u) => typeof u === 'string' && sameRedirect(u, redirect))
    )
      return undefined;
    return info;
  }

  async saveClientInformation(
    info: StoredOAuthClientInformation,
    ctx?: OAuthClientInformationContext,
  ): Promise<void> {
    if (this.opts.preRegistered || !ctx) return;
    await this.write(`client.${issuerKey(ctx.issuer)}`, info);
  }

  async tokens(): Promise<StoredOAuthTokens | undefined> {
    const tokens = await this.read<StoredOAuthTokens>(`srv.${this.key}.tokens`);
    if (isDpopBound(tokens) && !(await this.dpopKeys.existing(this.key))) {
      // Bound to a key that is gone (keychain entry removed): useless to anyone, us included.
      // Without tokens the next 401 asks for a sign-in, which binds a new key.
      await this.opts.vault.delete(`srv.${this.key}.tokens`);
      return undefined;
    }
    return tokens;
  }

  /**
   * SEP-1932 / RFC 9449: the DPoP session the SDK signs proofs with (token requests; requests
   * to the server when the token is DPoP-bound). Only where the authorization server
   * advertises an algorithm we can sign with; elsewhere plain bearer tokens, as before. A
   * token already bound to our key keeps its proofs even if the server stopped advertising.
   */
  async dpop(): Promise<DpopSession | undefined> {
    const accepted = await this.advertisedDpopAlgs();
    const alg = chooseDpopAlg(accepted);
    if (alg && accepted) return this.dpopKeys.ensure(this.key, alg, accepted);
    // The key check first: it is answered from memory after the first request.
    const session = await this.dpopKeys.existing(this.key);
    if (!session) return undefined;
    return isDpopBound(await this.read<StoredOAuthTokens>(`srv.${this.key}.tokens`)) ? session : undefined;
  }

  /** How the stored token is bound, for the audit record of a sign-in (the thumbprint is public). */
  async tokenBinding(): Promise<TokenBinding> {
    const tokens = await this.tokens();
    if (!tokens) return { kind: 'none' };
    const session = isDpopBound(tokens) ? await this.dpopKeys.existing(this.key) : undefined;
    return session ? { kind: 'dpop', jkt: session.thumbprint } : { kind: 'bearer' };
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    await this.write(`srv.${this.key}.tokens`, tokens);
    // The sign-in (if one was under way) is complete: its verifier is spent, and with it ends
    // the binding of discovery to that redirect (see discoveryState).
    await this.opts.vault.delete(`srv.${this.key}.verifier`);
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    await this.opts.onRedirect(url);
  }

  async saveCodeVerifier(verifier: string): Promise<void> {
    await this.opts.vault.set(`srv.${this.key}.verifier`, verifier);
  }

  async codeVerifier(): Promise<string> {
    const v = await this.opts.vault.get(`srv.${this.key}.verifier`);
    if (!v) throw new Error('no PKCE code verifier is stored for this sign-in');
    return v;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.write(`srv.${this.key}.discovery`, state);
    this.dpopAlgs = undefined;
  }

  /**
   * The discovery of the sign-in under way (a PKCE verifier is stored), so the code is
   * exchanged at the authorization server the redirect went to (SEP-2352 callback leg).
   * Outside a sign-in the SDK discovers afresh: a 401 on a token that used to work may mean
   * the server moved to another authorization server, and a cached discovery would send us
   * back to the old one forever; tokens and registrations carry their issuer, so the old
   * server's are then set aside rather than reused.
   */
  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    if ((await this.opts.vault.get(`srv.${this.key}.verifier`)) === undefined) return undefined;
    return this.read<OAuthDiscoveryState>(`srv.${this.key}.discovery`);
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'tokens') await this.opts.vault.delete(`srv.${this.key}.tokens`);
    if (scope === 'all' || scope === 'verifier') await this.opts.vault.delete(`srv.${this.key}.verifier`);
    if (scope === 'all' || scope === 'discovery') {
      await this.opts.vault.delete(`srv.${this.key}.discovery`);
      this.dpopAlgs = undefined;
    }
    if (scope === 'all' || scope === 'client') {
      // The registration is per issuer; the discovery state says which one this server used.
      const issuer = (await this.read<OAuthDiscoveryState>(`srv.${this.key}.discovery`))
        ?.authorizationServerUrl;
      if (issuer) await this.opts.vault.delete(`client.${issuerKey(issuer)}`);
    }
  }

  /** Whether tokens are stored for this server (signed in, as far as we know). */
  async hasTokens(): Promise<boolean> {
    return (await this.tokens()) !== undefined;
  }

  /** Sign out: forget this server's tokens, verifier, discovery state and DPoP key pair. */
  async signOut(): Promise<void> {
    for (const part of ['tokens', 'verifier', 'discovery'])
      await this.opts.vault.delete(`srv.${this.key}.${part}`);
    await this.dpopKeys.remove(this.key);
    this.dpopAlgs = undefined;
  }

  /** The authorization server's DPoP algorithms, read once per discovery (every request asks). */
  private advertisedDpopAlgs(): Promise<string[] | undefined> {
    this.dpopAlgs ??= (async () => {
      const state = await this.read<OAuthDiscoveryState>(`srv.${this.key}.discovery`);
      // OpenID provider metadata is typed without it, but both schemas keep unknown members.
      const metadata = state?.authorizationServerMetadata as Record<string, unknown> | undefined;
      const algs = metadata?.dpop_signing_alg_values_supported;
      return Array.isArray(algs) ? algs.filter((a): a is string => typeof a === 'string') : undefined;
    })();
    const pending = this.dpopAlgs;
    // A keychain that failed once is asked again next time.
    pending.catch(() => {
      if (this.dpopAlgs === pending) this.dpopAlgs = undefined;
    });
    return pending;
  }

  private async read<T>(key: string): Promise<T | undefined> {
    const text = await this.opts.vault.get(key);
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text) as T;
    } catch {
      // A damaged entry is as good as none: the flow starts over rather than failing forever.
      await this.opts.vault.delete(key);
      return undefined;
    }
  }

  private async write(key: string, value: Stored | object): Promise<void> {
    await this.opts.vault.set(key, JSON.stringify(value));
  }
}
