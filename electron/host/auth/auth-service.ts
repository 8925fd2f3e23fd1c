import {
  IssuerMismatchError,
  UnauthorizedError,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';
import {
  isStdioConfig,
  type RemoteServerConfig,
  type ServerConfig,
} from '../../../shared/domain/server-config.js';
import type { ServerAuth, ServerState, ServerSummary } from '../../../shared/domain/server-state.js';
import type { HostError } from '../../../shared/ipc/host-error.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { HostEvents } from '../host-events.js';
import { checkExternalUrl } from '../util/external-url.js';
import { HostFailure, toHostError } from '../util/errors.js';
import type { AuthHostPort } from './auth-host-port.js';
import { DeskOAuthProvider } from './desk-oauth-provider.js';
import { DpopKeys } from './dpop-keys.js';
import { LoopbackRedirect } from './loopback-redirect.js';
import { oauthSettings, type OAuthSettingsContext } from './provider-options.js';
import { redactingVault } from './redacting-vault.js';
import { SignInBudget } from './sign-in-budget.js';
import type { TokenVault } from './token-vault.js';
import type { Disposable } from '../util/disposable.js';

export interface AuthServiceDeps {
  /** The servers, through the few operations sign-in needs. */
  servers: AuthHostPort;
  events: HostEvents;
  vault: TokenVault;
  /** Opens the authorization URL in the system browser (or a test's scripted browser). */
  openExternal: (url: string) => Promise<void>;
  settings: OAuthSettingsContext;
  audit?: AuditLog;
  budget?: SignInBudget;
  /** How long a sign-in waits for the browser to come back. */
  timeoutMs?: number;
}

interface Flow {
  provider: DeskOAuthProvider;
  listener: LoopbackRedirect;
  since: number;
  /** The SDK sent the person to the authorization server. */
  redirected: boolean;
  /** The browser came back (whatever it brought): from here on nothing may open it again. */
  returned: boolean;
  /** Called when the connect succeeded with tokens already stored (no browser needed). */
  connected?: () => void;
}

const SETTLE_MS = 60_000;

/**
 * The person-facing OAuth sign-in of remote servers. It supplies each connect with a
 * provider (interactive while a sign-in runs, background otherwise, none before the first
 * sign-in) and runs the flow: loopback listener, browser, callback, token exchange,
 * reconnect. A background provider never opens a browser: an expired refresh token ends
 * in "sign-in needed", not a window popping up unasked.
 */
export class AuthService implements Disposable {
  private readonly flows = new Map<string, Flow>();
  private readonly failures = new Map<string, string>();
  private readonly signedIn = new Set<string>();
  private readonly vault: TokenVault;
  private readonly dpopKeys: DpopKeys;
  private readonly budget: SignInBudget;
  private disposed = false;

  constructor(private readonly deps: AuthServiceDeps) {
    this.vault = redactingVault(deps.vault, deps.settings.redactor);
    this.dpopKeys = new DpopKeys(this.vault);
    this.budget = deps.budget ?? new SignInBudget();
  }

  /** ComposeOptions.authProviderFor: the provider a connect to this server should use. */
  async providerFor(serverId: string, url: URL): Promise<OAuthClientProvider | undefined> {
    const flow = this.flows.get(serverId);
    if (flow) return flow.provider;
    const config = this.remoteConfig(serverId);
    if (!config) return undefined;
    const provider = await this.makeProvider(
      serverId,
      url,
      config,
      () => undefined,
      () => {
        // A refresh that failed must not open a browser nobody asked for: sign-in needed instead.
        throw new UnauthorizedError('the sign-in expired: sign in again');
      },
    );
    let has = false;
    try {
      has = await provider.hasTokens();
    } catch {
      // No keychain here: nothing can be stored, so there is nothing to sign in with.
    }
    this.setSignedIn(serverId, has);
    return has ? provider : undefined;
  }

  /** Where a server's sign-in stands, for its summary; undefined for stdio servers. */
  statusOf(serverId: string, config: ServerConfig | undefined, state: ServerState): ServerAuth | undefined {
    if (!config || isStdioConfig(config)) return undefined;
    const flow = this.flows.get(serverId);
    if (flow) return { kind: 'signing-in', since: flow.since };
    const failed = this.failures.get(serverId);
    if (failed !== undefined && state.kind !== 'connected') return { kind: 'failed', reason: failed };
    if (state.kind === 'auth-required') return { kind: 'sign-in-needed' };
    return this.signedIn.has(serverId) ? { kind: 'signed-in' } : { kind: 'none' };
  }

  /**
   * Sign in: listen on loopback, reconnect with the interactive provider (the SDK discovers,
   * registers and sends the browser to the authorization server), wait for the redirect,
   * exchange the code and connect. Resolves once connected; rejects with why it failed.
   */
  async signIn(serverId: string): Promise<void> {
    const config = this.remoteConfig(serverId);
    if (!config) throw new HostFailure('not_remote', `server "${serverId}" is not a remote server`);
    if (this.flows.has(serverId))
      throw new HostFailure('sign_in_running', `a sign-in for "${serverId}" is already under way`);
    if (!this.budget.take(serverId)) {
      const reason = `too many sign-in attempts; try again in ${this.budget.minutesUntilNext(serverId)} min`;
      this.fail(serverId, 'budget', reason);
      throw new HostFailure('sign_in_limit', reason);
    }
    const servers = this.deps.servers;
    const url = new URL(config.url);
    const listener = new LoopbackRedirect({
      expectedState: () => flow.provider.lastState,
      timeoutMs: this.deps.timeoutMs,
    });
    const redirectUri = await listener.start();
    const flow: Flow = {
      listener,
      since: Date.now(),
      redirected: false,
      returned: false,
      provider: await this.makeProvider(
        serverId,
        url,
        config,
        () => redirectUri,
        (authUrl) => this.openBrowser(flow, authUrl),
      ),
    };
    try {
      // A sign-in is asked for when the stored tokens no longer work (the UI offers it only
      // then): drop them, or the SDK would refresh and retry them instead of asking the person.
      // This is also the first keychain call: without a keychain the sign-in, whose tokens
      // could not be kept, ends here with its reason, before any browser opens.
      await flow.provider.invalidateCredentials('tokens');
    } catch (error) {
      const e = this.explain(error);
      listener.cancel(e.message);
      this.fail(serverId, e.code, e.message);
      this.announce();
      throw new HostFailure(e.code, e.message);
    }
    this.flows.set(serverId, flow);
    this.failures.delete(serverId);
    this.deps.audit?.append({
      kind: 'auth',
      serverId,
      action: 'sign-in-started',
      details: { issuerOrigin: url.origin },
    });
    const offState = this.deps.events.on('servers.changed', (list) => this.onServers(serverId, flow, list));
    try {
      this.announce();
      await servers.restart(serverId);
      const outcome = await Promise.race([listener.wait(), this.connectedWithoutBrowser(flow)]);
      flow.returned = true;
      if (!outcome.ok)
        throw new HostFailure(outcome.code === 'cancelled' ? 'cancelled' : 'sign_in_failed', outcome.reason, {
          reason: outcome.code,
        });
      if (outcome.params) {
        // The code is a credential until it is spent: never let it reach a log or a trace.
        const code = outcome.params.get('code');
        if (code) this.deps.settings.redactor.addSecret(code);
        await servers.finishAuth(serverId, outcome.params);
        await this.untilConnected(serverId);
      }
      this.flows.delete(serverId);
      this.setSignedIn(serverId, true);
      this.budget.reset(serverId);
      // The binding says whether a copied token is useless without our key (the thumbprint is public).
      const binding = await flow.provider.tokenBinding().catch(() => undefined);
      this.deps.audit?.append({
        kind: 'auth',
        serverId,
        action: 'sign-in-succeeded',
        ...(binding && binding.kind !== 'none'
          ? {
              details:
                binding.kind === 'dpop' ? { binding: 'dpop', jkt: binding.jkt } : { binding: 'bearer' },
            }
          : {}),
      });
    } catch (error) {
      const e = this.explain(error);
      this.flows.delete(serverId);
      listener.cancel(e.message);
      this.fail(serverId, e.code, e.message);
      // Back to where it stood without this flow: tokens from before, or sign-in needed.
      if (!this.disposed) await servers.restart(serverId).catch(() => undefined);
      throw new HostFailure(e.code, e.message);
    } finally {
      offState();
      this.announce();
    }
  }

  /** Cancel a running sign-in; false when none was running. */
  cancel(serverId: string): boolean {
    const flow = this.flows.get(serverId);
    if (!flow) return false;
    flow.listener.cancel();
    return true;
  }

  /** Forget the server's tokens and reconnect (which then asks for a sign-in). */
  async signOut(serverId: string): Promise<void> {
    const config = this.remoteConfig(serverId);
    if (!config) throw new HostFailure('not_remote', `server "${serverId}" is not a remote server`);
    this.cancel(serverId);
    const provider = await this.makeProvider(
      serverId,
      new URL(config.url),
      config,
      () => undefined,
      () => undefined,
    );
    await provider.signOut();
    this.setSignedIn(serverId, false);
    this.failures.delete(serverId);
    this.budget.reset(serverId);
    // The DPoP key pair went with the tokens (provider.signOut): the next sign-in binds a new one.
    this.deps.audit?.append({ kind: 'auth', serverId, action: 'signed-out' });
    const servers = this.deps.servers;
    if (!servers.serverConfig(serverId)?.disabled) await servers.restart(serverId);
    this.announce();
  }

  dispose(): void {
    this.disposed = true;
    for (const flow of this.flows.values()) flow.listener.cancel('the app is closing');
  }

  private async makeProvider(
    serverId: string,
    url: URL,
    config: RemoteServerConfig,
    redirectUrl: () => string | undefined,
    onRedirect: (url: URL) => void | Promise<void>,
  ): Promise<DeskOAuthProvider> {
    const settings = await oauthSettings(serverId, config, this.deps.settings);
    return new DeskOAuthProvider({
      serverId,
      serverUrl: url.href,
      vault: this.vault,
      dpopKeys: this.dpopKeys,
      redirectUrl,
      onRedirect,
      ...settings,
    });
  }

  private async openBrowser(flow: Flow, authUrl: URL): Promise<void> {
    const safe = checkExternalUrl(authUrl.href);
    if (!safe)
      throw new HostFailure(
        'sign_in_failed',
        'the authorization server asked to open a link that is not http(s)',
      );
    // One browser trip per sign-in: a server that rejects the fresh token must not loop us back.
    if (flow.redirected)
      throw new UnauthorizedError('the server asked for another sign-in right after this one');
    flow.redirected = true;
    await this.deps.openExternal(safe);
  }

  /** Already signed in (tokens were still good): the connect succeeds without a redirect. */
  private connectedWithoutBrowser(flow: Flow): Promise<{ ok: true; params?: undefined }> {
    return new Promise((resolve) => {
      flow.connected = () => resolve({ ok: true });
    });
  }

  /** Follow the connection while the flow runs: show it as signing in, end it on a failure. */
  private onServers(serverId: string, flow: Flow, list: ServerSummary[]): void {
    const state = list.find((s) => s.id === serverId)?.state;
    if (!state || this.flows.get(serverId) !== flow) return;
    if (state.kind === 'connected' && !flow.redirected) flow.connected?.();
    else if (state.kind === 'auth-required' && flow.redirected && !flow.returned)
      this.deps.servers.markAuthenticating(serverId);
    else if ((state.kind === 'failed' || state.kind === 'auth-required') && !flow.redirected) {
      flow.listener.cancel(
        state.kind === 'failed'
          ? `could not start the sign-in: ${state.error.message}`
          : 'the server did not offer a sign-in',
      );
    }
  }

  /** A reason a person can read, and nothing the authorization server wrote itself. */
  private explain(error: unknown): Pick<HostError, 'code' | 'message'> {
    if (error instanceof IssuerMismatchError)
      return {
        code: 'issuer_mismatch',
        message: 'the sign-in came back from a different authorization server than it started with',
      };
    const e = toHostError(error, this.deps.settings.redactor);
    return { code: e.code, message: e.message.slice(0, 300) };
  }

  /** After the code exchange the connection restarts: succeed only once it is up. */
  private async untilConnected(serverId: string): Promise<void> {
    const deadline = Date.now() + SETTLE_MS;
    for (;;) {
      const state = this.deps.servers.serverState(serverId);
      if (state?.kind === 'connected') return;
      if (state?.kind === 'failed')
        throw new HostFailure(
          'sign_in_failed',
          `signed in, but the server did not connect: ${state.error.message}`,
        );
      if (state?.kind === 'auth-required')
        throw new HostFailure('sign_in_failed', 'the server refused the new sign-in');
      if (state?.kind === 'disabled' && this.disposed)
        throw new HostFailure('cancelled', 'the app is closing');
      if (Date.now() > deadline)
        throw new HostFailure('sign_in_failed', 'the server did not connect after the sign-in');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private fail(serverId: string, code: string, reason: string): void {
    if (code !== 'cancelled') this.failures.set(serverId, reason);
    this.deps.audit?.append({
      kind: 'auth',
      serverId,
      action: code === 'cancelled' ? 'sign-in-cancelled' : 'sign-in-failed',
      details: { code, reason },
    });
  }

  private setSignedIn(serverId: string, yes: boolean): void {
    const had = this.signedIn.has(serverId);
    if (yes) this.signedIn.add(serverId);
    else this.signedIn.delete(serverId);
    if (had !== yes) this.announce();
  }

  private announce(): void {
    if (!this.disposed) this.deps.servers.announce();
  }

  private remoteConfig(serverId: string): RemoteServerConfig | undefined {
    const c = this.deps.servers.serverConfig(serverId);
    return c && !isStdioConfig(c) ? c : undefined;
  }
}
