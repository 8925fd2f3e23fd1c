import type { AuthProvider, Client, OAuthClientProvider } from '@modelcontextprotocol/client';
import { isStdioConfig, type ServerConfig } from '../../../shared/domain/server-config.js';
import type { HostError, SandboxState, ServerState } from '../../../shared/domain/server-state.js';
import { emptyLists, loadServerLists, type ServerLists } from '../catalog/server-catalog.js';
import { HostFailure, toHostError } from '../util/errors.js';
import { isAuthRequired, redeemSignIn } from './connection-auth.js';
import type { OpenedClient } from './client-factory.js';
import {
  closeOpened,
  describeServer,
  pushRootsListChanged,
  reapClosed,
  type ServerRequestHandlers,
} from './client-session.js';
import { planConnect, readEra, type AuthProviderLookup } from './connect-plan.js';
import { openSession } from './connect-session.js';
import type { EraCache } from './era-cache.js';
import type { LaunchContext } from './launch.js';
import { snapshotTree, type ProcessSnapshot } from './process-tree.js';
import { systemSandboxDetector, type SandboxDetector } from './sandbox/sandbox-detector.js';
import { sandboxStateOf } from './sandbox/sandbox-launch.js';
import type { ServerOutput } from './server-output.js';
import { SessionRequests } from './session-requests.js';

export type { ServerRequestHandlers } from './client-session.js';

export interface ConnectionDeps {
  launch: LaunchContext;
  eraCache: EraCache;
  output: ServerOutput;
  handlers: ServerRequestHandlers;
  onState: (state: ServerState) => void;
  onLists: () => void;
  /** Reconnect policy; tests shorten it. */
  backoff?: { baseMs: number; maxMs: number; maxAttempts: number };
  /** Whether an OS sandbox is available (the system's by default). */
  sandbox?: SandboxDetector;
  /**
   * The OAuth provider (or other bearer source) for a remote server, looked up on every
   * connect; undefined connects without one (a 401 then means "sign-in needed").
   */
  authProviderFor?: AuthProviderLookup;
}

const DEFAULT_TIMEOUT = 60_000;
const DEFAULT_BACKOFF = { baseMs: 500, maxMs: 30_000, maxAttempts: 6 };

/**
 * One server's connection and its state machine:
 * disabled -> connecting -> connected -> (crash) reconnecting -> connected | failed.
 * A first connect that fails goes to `failed` with a reason a person can act on; a crash
 * after a good connection retries with exponential backoff, since that is usually transient.
 */
export class ServerConnection {
  private current?: OpenedClient;
  private lists: ServerLists = emptyLists();
  private stateValue: ServerState = { kind: 'disabled' };
  private generation = 0;
  private retryTimer?: NodeJS.Timeout;
  private attempt = 0;
  private readonly backoff: { baseMs: number; maxMs: number; maxAttempts: number };
  private readonly sandboxDetector: SandboxDetector;
  private readonly trees = new WeakMap<OpenedClient, ProcessSnapshot>();
  /** The auth provider of the last remote connect: finishAuth completes its flow. */
  private authProvider?: AuthProvider | OAuthClientProvider;
  private serverUrl?: URL;
  /** The sandbox of the last launch; its mounts stay fixed until the next one. */
  private launchedSandbox?: SandboxState;
  /** The connect attempt in flight: a stop aborts it and waits for it, so no process outlives stop(). */
  private connecting?: { abort: AbortController; done: Promise<void> };
  /** whenSettled callers, woken by the state change that settles them. */
  private readonly settleWaiters = new Set<() => void>();

  constructor(
    readonly id: string,
    private config: ServerConfig,
    private readonly deps: ConnectionDeps,
  ) {
    this.backoff = deps.backoff ?? DEFAULT_BACKOFF;
    this.sandboxDetector = deps.sandbox ?? systemSandboxDetector;
    this.requests = new SessionRequests({
      id,
      client: () => this.connectedClient(),
      tools: () => this.lists.tools,
      timeout: () => this.timeout,
    });
  }

  get state(): ServerState {
    return this.stateValue;
  }

  /** tools/call, resources/read, prompts/get and completion on the live session. */
  readonly requests: SessionRequests;

  /** Tools after include/exclude filters, resources, templates, prompts. */
  get catalog(): ServerLists {
    return this.lists;
  }

  get timeout(): number {
    return this.config.timeout ?? DEFAULT_TIMEOUT;
  }

  /** True for a stdio server configured to run in the OS sandbox. */
  get sandboxed(): boolean {
    return isStdioConfig(this.config) && this.config.sandbox === true;
  }

  /** The sandbox as the UI shows it (stdio only). */
  get sandboxState(): SandboxState | undefined {
    if (!isStdioConfig(this.config)) return undefined;
    return sandboxStateOf(
      this.sandboxed,
      () => this.sandboxDetector.detect(),
      this.launchedSandbox,
      this.deps.handlers.listRoots?.().length ?? 0,
    );
  }

  /** Start connecting (no-op when already connected or connecting). */
  start(): void {
    if (this.stateValue.kind === 'connected' || this.stateValue.kind === 'connecting') return;
    this.attempt = 0;
    this.runConnect(++this.generation, 'first');
  }

  /** Stop: the process tree is gone when this resolves. */
  async stop(): Promise<void> {
    this.generation++;
    clearTimeout(this.retryTimer);
    // A server that never answers would otherwise keep its process until the connect times out.
    const inFlight = this.connecting;
    inFlight?.abort.abort();
    await inFlight?.done;
    await this.teardown();
    this.setState({ kind: 'disabled' });
  }

  /** Swap the config (the caller restarts if it wants the new one live). */
  reconfigure(config: ServerConfig): void {
    this.config = config;
  }

  async restart(): Promise<void> {
    await this.stop();
    this.start();
  }

  /** Resolves once the state is settled (connected, failed or disabled) or time runs out. */
  whenSettled(timeoutMs: number): Promise<ServerState> {
    if (isSettled(this.stateValue)) return Promise.resolve(this.stateValue);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.settleWaiters.delete(done);
        resolve(this.stateValue);
      };
      const timer = setTimeout(done, timeoutMs);
      this.settleWaiters.add(done);
    });
  }

  /** The roots changed: a sandboxed server is restarted (its mounts are fixed), any other is told. */
  async rootsChanged(): Promise<void> {
    // A sandboxed process sees only the folders mounted when it started: restart it instead.
    if (this.sandboxed && (this.stateValue.kind === 'connected' || this.stateValue.kind === 'connecting')) {
      this.deps.output.note(
        'restarting: the shared folders changed, and a sandboxed server sees only the folders it was started with',
      );
      await this.restart();
      return;
    }
    await this.notifyRootsChanged();
  }

  /** Tell the server our roots changed (see pushRootsListChanged); returns whether a notification went out. */
  async notifyRootsChanged(): Promise<boolean> {
    const client = this.current?.client;
    if (!this.deps.handlers.listRoots || this.stateValue.kind !== 'connected' || !client) return false;
    return pushRootsListChanged(client, (error) =>
      this.deps.output.note(
        `roots list_changed failed: ${toHostError(error, this.deps.launch.redactor).message}`,
      ),
    );
  }

  /** A sign-in for this server is under way (the flow controller shows it; cancel restarts). */
  markAuthenticating(): void {
    this.setState({ kind: 'authenticating', since: Date.now() });
  }

  /** Redeem a sign-in's redirect query with the provider of the last connect, then reconnect. */
  async finishAuth(params: URLSearchParams): Promise<void> {
    await redeemSignIn(this.id, this.authProvider, this.serverUrl, params);
    await this.restart();
  }

  private connectedClient(): Client {
    if (this.stateValue.kind !== 'connected' || !this.current) {
      throw new HostFailure(
        'not_connected',
        `server "${this.id}" is not connected (${this.stateValue.kind})`,
      );
    }
    return this.current.client;
  }

  private runConnect(gen: number, why: 'first' | 'retry'): void {
    const abort = new AbortController();
    const entry = { abort, done: Promise.resolve() };
    entry.done = this.connect(gen, why, abort.signal).finally(() => {
      if (this.connecting === entry) this.connecting = undefined;
    });
    this.connecting = entry;
  }

  private async connect(gen: number, why: 'first' | 'retry', signal?: AbortSignal): Promise<void> {
    this.attempt++;
    if (why === 'first') this.setState({ kind: 'connecting', attempt: this.attempt });
    const output = this.deps.output;
    const era = readEra(this.config, this.deps.eraCache);
    const stale = () => gen !== this.generation;
    try {
      const plan = await planConnect(
        {
          id: this.id,
          config: this.config,
          launch: this.deps.launch,
          output,
          sandboxDetector: this.sandboxDetector,
          rootUris: () => (this.deps.handlers.listRoots?.() ?? []).map((r) => r.uri),
          ...(this.deps.authProviderFor ? { authProviderFor: this.deps.authProviderFor } : {}),
          stale,
        },
        era,
      );
      if (!plan) return;
      this.launchedSandbox = plan.sandbox;
      this.authProvider = plan.authProvider;
      if (plan.serverUrl) this.serverUrl = plan.serverUrl;
      const opened = await openSession(plan, {
        id: this.id,
        handlers: this.deps.handlers,
        output,
        timeout: this.timeout,
        listChanged: this.listChangedHandlers(gen),
        ...(signal ? { signal } : {}),
      });
      if (stale()) {
        await closeOpened(opened);
        return;
      }
      if (opened.verdict) this.deps.eraCache.set(era.key, opened.verdict);
      this.current = opened;
      await this.rememberTree(opened);
      opened.client.onclose = () => this.onClosed(gen, opened);
      opened.client.onerror = (error) =>
        output.note(`transport error: ${toHostError(error, this.deps.launch.redactor).message}`);
      // A stateless (2026-07-28) connect with a cached verdict sends nothing before the
      // lists, so a missing or revoked token first shows here: that is "sign-in needed" too.
      let authWall: { error: unknown } | undefined;
      this.lists = await this.loadLists(opened.client, (error) => {
        if (isAuthRequired(error)) authWall ??= { error };
      });
      if (authWall) throw authWall.error;
      if (stale()) return;
      // Servers often spawn their workers during start-up; take the snapshot again now.
      await this.rememberTree(opened);
      this.attempt = 0;
      this.setState({ kind: 'connected', info: describeServer(this.id, opened), since: Date.now() });
      this.deps.onLists();
    } catch (error) {
      if (stale()) return;
      // A stale verdict (server changed eras) must not poison every later attempt.
      if (era.prior) this.deps.eraCache.delete(era.key);
      await this.teardown();
      const hostError = this.explain(toHostError(error, this.deps.launch.redactor));
      output.note(`connect failed: ${hostError.message}`);
      // Retrying cannot sign anyone in: wait for the person instead of backing off forever.
      if (isAuthRequired(error))
        this.setState({ kind: 'auth-required', message: 'This server needs you to sign in.' });
      else if (why === 'retry') this.scheduleRetry(gen, hostError);
      else this.setState({ kind: 'failed', error: hostError });
    }
  }

  /** A bare "connection closed" helps nobody: add what the process last said on stderr. */
  private explain(error: HostError): HostError {
    const last = isStdioConfig(this.config) ? this.deps.output.lastStderr() : undefined;
    if (!last || error.message.includes(last)) return error;
    return { ...error, message: `${error.message}; the server's last words: ${last.slice(0, 300)}` };
  }

  private onClosed(gen: number, opened: OpenedClient): void {
    if (gen !== this.generation || this.current !== opened) return;
    this.current = undefined;
    this.lists = emptyLists();
    this.deps.onLists();
    const error = this.explain({
      code: 'connection_closed',
      message: 'the server closed the connection (crashed or exited)',
    });
    this.deps.output.note(error.message);
    // Reap whatever the dead server left behind (children it spawned, now re-parented).
    const tree = this.trees.get(opened);
    void reapClosed(opened, tree);
    this.attempt = 0;
    this.scheduleRetry(gen, error);
  }

  /** Remember the process tree so a crash can still be cleaned up after re-parenting. */
  private async rememberTree(opened: OpenedClient): Promise<void> {
    if (!opened.pid) return;
    const tree = await snapshotTree(opened.pid).catch(() => undefined);
    if (tree) this.trees.set(opened, tree);
  }

  private scheduleRetry(gen: number, lastError: HostError): void {
    if (this.attempt >= this.backoff.maxAttempts) {
      this.setState({
        kind: 'failed',
        error: { ...lastError, message: `${lastError.message} (gave up after ${this.attempt} attempts)` },
      });
      return;
    }
    const delay =
      Math.min(this.backoff.maxMs, this.backoff.baseMs * 2 ** this.attempt) * (0.8 + Math.random() * 0.4);
    this.setState({
      kind: 'reconnecting',
      attempt: this.attempt + 1,
      retryAt: Date.now() + delay,
      lastError,
    });
    this.retryTimer = setTimeout(() => {
      if (gen === this.generation) this.runConnect(gen, 'retry');
    }, delay);
  }

  /** A list that fails is noted in the log; `onError` also hears of it (a sign-in wall). */
  private loadLists(client: Client, onError?: (error: unknown) => void): Promise<ServerLists> {
    return loadServerLists(client, this.config, this.timeout, (what, error) => {
      onError?.(error);
      this.deps.output.note(`${what} failed: ${toHostError(error, this.deps.launch.redactor).message}`);
    });
  }

  private listChangedHandlers(gen: number) {
    const refresh = () => {
      const client = this.current?.client;
      if (gen !== this.generation || !client) return;
      void this.loadLists(client).then((lists) => {
        if (gen !== this.generation) return;
        this.lists = lists;
        this.deps.onLists();
      });
    };
    // autoRefresh off: one full reload keeps filters and templates consistent.
    const opts = { autoRefresh: false, onChanged: refresh };
    return { tools: opts, prompts: opts, resources: opts };
  }

  private async teardown(): Promise<void> {
    const opened = this.current;
    this.current = undefined;
    if (
      this.lists.tools.length ||
      this.lists.resources.length ||
      this.lists.prompts.length ||
      this.lists.templates.length
    ) {
      this.lists = emptyLists();
      this.deps.onLists();
    }
    if (opened) await closeOpened(opened, this.trees.get(opened));
  }

  private setState(state: ServerState): void {
    this.stateValue = state;
    this.deps.onState(state);
    if (isSettled(state)) for (const waiter of [...this.settleWaiters]) waiter();
  }

  /** For status lines: stdio or remote. */
  get transportKind(): 'stdio' | 'http' | 'sse' {
    return this.current?.transportKind ?? (isStdioConfig(this.config) ? 'stdio' : 'http');
  }
}

/** Connected, failed or disabled: nothing more happens without a person or a crash. */
function isSettled(state: ServerState): boolean {
  return state.kind === 'connected' || state.kind === 'failed' || state.kind === 'disabled';
}
