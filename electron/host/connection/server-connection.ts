import type { AuthProvider, Client, OAuthClientProvider } from '@modelcontextprotocol/client';
import { isStdioConfig, wantsSandbox, type ServerConfig } from '../../../shared/domain/server-config.js';
import type {
  HostError,
  NetworkActivity,
  SandboxState,
  ServerState,
} from '../../../shared/domain/server-state.js';
import { emptyLists, type ServerLists } from '../catalog/server-catalog.js';
import { HostFailure, toHostError } from '../util/errors.js';
import { isAuthRequired, redeemSignIn } from './connection-auth.js';
import type { OpenedClient } from './client-factory.js';
import { describeServer, pushRootsListChanged } from './client-session.js';
import { closeOpened } from './close-session.js';
import { CrashReaper } from './crash-reaper.js';
import { loadConnectionLists } from './connection-lists.js';
import { readEra } from './connect-plan.js';
import { attemptConnect, type ConnectionDeps } from './connect-attempt.js';
import { snapshotTree, type ProcessSnapshot } from './process-tree.js';
import { RestartPolicy, type RestartState } from './restart-policy.js';
import { NetworkGate } from './sandbox/network-gate.js';
import { systemSandboxDetector, type SandboxDetector } from './sandbox/sandbox-detector.js';
import { sandboxStateOf } from './sandbox/sandbox-launch.js';
import { SessionOpener } from './session-opener.js';
import { SessionRequests } from './session-requests.js';
import { SettleWaiters } from './settle-waiters.js';

export type { ServerRequestHandlers } from './client-session.js';
export type { ConnectionDeps } from './connect-attempt.js';

const DEFAULT_TIMEOUT = 60_000;

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
  private readonly restarts: RestartPolicy;
  private readonly sandboxDetector: SandboxDetector;
  private readonly trees = new WeakMap<OpenedClient, ProcessSnapshot>();
  /** The auth provider of the last remote connect: finishAuth completes its flow. */
  private authProvider?: AuthProvider | OAuthClientProvider;
  private serverUrl?: URL;
  /** The sandbox of the last launch; its mounts stay fixed until the next one. */
  private launchedSandbox?: SandboxState;
  /** The connect attempt in flight: a stop aborts it and waits for it, so no process outlives stop(). */
  /** whenSettled callers, woken by the state change that settles them. */
  private readonly settleWaiters = new SettleWaiters();
  private readonly opener = new SessionOpener();
  /** Sweeps what servers that died on their own left behind; stop() waits for it. */
  private readonly reaper = new CrashReaper();
  /** The session a connect attempt opened and has not finished (its lists are being read). */
  private attemptSession?: OpenedClient;
  /** A session whose server went away while its connect attempt was still reading lists. */
  private closedEarly?: OpenedClient;
  /** Something was sent on the session of this generation (a call, a read): it is not swapped under it. */
  private usedGeneration = -1;
  /** The network rule's proxy and what the server tried through it (sandboxed servers). */
  private readonly network: NetworkGate;

  constructor(
    readonly id: string,
    private config: ServerConfig,
    private readonly deps: ConnectionDeps,
  ) {
    this.restarts = new RestartPolicy(deps.backoff);
    this.sandboxDetector = deps.sandbox ?? systemSandboxDetector;
    this.network = new NetworkGate(() => deps.onNetwork?.());
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

  /** For the host's diagnostics: the live session (none between sessions) and the restart policy's state. */
  get probe(): { session?: Pick<OpenedClient, 'client' | 'pid'>; restarts: RestartState } {
    return { session: this.current, restarts: this.restarts.state() };
  }

  /** tools/call, resources/read, prompts/get and completion on the live session. */
  readonly requests: SessionRequests;

  /** Tools after include/exclude filters, resources, templates, prompts. */
  get catalog(): ServerLists {
    return this.lists;
  }

  get timeout(): number {
    return this.deps.timeoutOverride ?? this.config.timeout ?? DEFAULT_TIMEOUT;
  }

  /** True for a stdio server configured to run in the OS sandbox (or under a network rule). */
  get sandboxed(): boolean {
    return wantsSandbox(this.config);
  }

  /** A sandboxed server's network rule and the destinations it tried (undefined for `any`). */
  get networkActivity(): NetworkActivity | undefined {
    return this.sandboxed && isStdioConfig(this.config)
      ? this.network.activity(this.config.network)
      : undefined;
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
    this.restarts.reset();
    void this.connect(++this.generation, 'first');
  }

  /** Stop: the process tree is gone when this resolves, even one a connect was still starting. */
  async stop(): Promise<void> {
    await this.endSession();
    await this.network.close();
    // Stopping what is already stopped is no transition: nothing to log or announce.
    if (this.stateValue.kind !== 'disabled') this.setState({ kind: 'disabled' });
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
    return this.settleWaiters.wait(() => this.stateValue, timeoutMs);
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
    await redeemSignIn(this.id, this.authProvider, this.serverUrl, params, this.timeout);
    await this.restart();
  }

  private connectedClient(): Client {
    if (this.stateValue.kind !== 'connected' || !this.current) {
      throw new HostFailure(
        'not_connected',
        `server "${this.id}" is not connected (${this.stateValue.kind})`,
      );
    }
    this.usedGeneration = this.generation;
    return this.current.client;
  }

  private async connect(gen: number, why: 'first' | 'retry'): Promise<void> {
    this.attempt++;
    if (why === 'first') this.setState({ kind: 'connecting', attempt: this.attempt });
    const era = readEra(this.config, this.deps.eraCache);
    const stale = () => gen !== this.generation;
    try {
      const attempt = await attemptConnect({
        id: this.id,
        config: this.config,
        deps: this.deps,
        timeout: this.timeout,
        sandboxDetector: this.sandboxDetector,
        opener: this.opener,
        network: this.network,
        era,
        stale,
        loadLists: (client, isStale, onError) => this.loadLists(client, isStale, onError),
        onListChanged: () => this.refreshLists(gen),
        onPlanned: (plan) => {
          this.launchedSandbox = plan.sandbox;
          this.authProvider = plan.authProvider;
          if (plan.serverUrl) this.serverUrl = plan.serverUrl;
        },
        onOpened: (opened) => {
          this.current = opened;
          this.attemptSession = opened;
          // No process-table read yet: the tree is read once the lists are in (below), when the
          // server has started its workers. A crash before that is reaped by its launch marker.
          opened.client.onclose = () => this.onClosed(gen, opened);
        },
        upgradeToModern: () => this.upgradeToModern(gen),
      });
      if (!attempt) return;
      // Gone between its lists and now: a connect that failed, not a crash of a working server.
      if (this.closedEarly === attempt.opened)
        throw new HostFailure(
          'connection_closed',
          'the server exited or closed its connection while connecting',
        );
      this.attemptSession = undefined;
      this.lists = attempt.lists;
      this.attempt = 0;
      this.restarts.connected();
      this.setState({ kind: 'connected', info: describeServer(this.id, attempt.opened), since: Date.now() });
      this.deps.onLists();
      // Servers often spawn their workers during start-up: the snapshot is taken now, once the
      // server is usable (until it lands, a crash is reaped through the launch marker).
      void this.rememberTree(attempt.opened);
    } catch (error) {
      this.attemptSession = undefined;
      this.closedEarly = undefined;
      if (stale()) return;
      // A stale verdict (server changed eras) must not poison every later attempt.
      if (era.prior) this.deps.eraCache.delete(era.key);
      await this.teardown();
      const hostError = this.explain(toHostError(error, this.deps.launch.redactor));
      this.deps.output.note(`connect failed: ${hostError.message}`);
      // Retrying cannot sign anyone in: wait for the person instead of backing off forever.
      if (isAuthRequired(error))
        this.setState({ kind: 'auth-required', message: 'This server needs you to sign in.' });
      else if (why === 'retry') this.scheduleRetry(gen, hostError, 'failed-attempt');
      else this.setState({ kind: 'failed', error: hostError });
    }
  }

  /**
   * A loaded machine timed the era probe out, so this session speaks 2025, and the probe's late
   * answer says the server speaks 2026-07-28 (now cached). While nothing was sent on the
   * session, connect again in that era (state stays "connecting", never "disabled"); once a
   * call went out, the session is kept and the next start uses the new era.
   */
  private upgradeToModern(gen: number): boolean {
    if (gen !== this.generation || this.usedGeneration === gen) return false;
    this.attempt = 0;
    this.setState({ kind: 'connecting', attempt: 1 });
    void this.endSession().then((next) =>
      next === this.generation ? this.connect(next, 'first') : undefined,
    );
    return true;
  }

  /** End the session and any connect under way (now stale); resolves, trees gone, to the new generation. */
  private async endSession(): Promise<number> {
    const next = ++this.generation;
    clearTimeout(this.retryTimer);
    await this.opener.cancel();
    await this.teardown();
    await this.reaper.settle();
    return next;
  }

  /** A bare "connection closed" helps nobody: add what the process last said on stderr. */
  private explain(error: HostError): HostError {
    const last = isStdioConfig(this.config) ? this.deps.output.lastStderr() : undefined;
    if (!last || error.message.includes(last)) return error;
    return { ...error, message: `${error.message}; the server's last words: ${last.slice(0, 300)}` };
  }

  private onClosed(gen: number, opened: OpenedClient): void {
    if (gen !== this.generation || this.current !== opened) return;
    // Still connecting (its lists not in yet): the attempt fails with it and says so (connect()).
    if (this.attemptSession === opened) {
      this.closedEarly = opened;
      return;
    }
    this.current = undefined;
    this.lists = emptyLists();
    this.deps.onLists();
    const error = this.explain({
      code: 'connection_closed',
      message: 'the server closed the connection (crashed or exited)',
    });
    this.deps.output.note(error.message);
    // Reap whatever the dead server left behind (children it spawned, now re-parented).
    this.reaper.died(opened, this.trees.get(opened));
    this.attempt = 0;
    this.scheduleRetry(gen, error, 'crash');
  }

  /** Remember the process tree so a crash can still be cleaned up after re-parenting. */
  private async rememberTree(opened: OpenedClient): Promise<void> {
    if (!opened.pid) return;
    const tree = await snapshotTree(opened.pid).catch(() => undefined);
    if (tree) this.trees.set(opened, tree);
  }

  private scheduleRetry(gen: number, lastError: HostError, after: 'crash' | 'failed-attempt'): void {
    const decision =
      after === 'crash' ? this.restarts.afterCrash(lastError) : this.restarts.afterFailedAttempt(lastError);
    if (!decision.retry) {
      this.setState({
        kind: 'failed',
        error: {
          ...lastError,
          message: `${lastError.message} (gave up after ${decision.attempts} attempts)`,
        },
      });
      return;
    }
    const delay = decision.delayMs;
    this.setState({
      kind: 'reconnecting',
      attempt: decision.attempt,
      retryAt: Date.now() + delay,
      lastError,
    });
    this.retryTimer = setTimeout(() => {
      if (gen === this.generation) void this.connect(gen, 'retry');
    }, delay);
  }

  private loadLists(client: Client, stale: () => boolean, onError?: (e: unknown, what: string) => void) {
    const { config, deps, timeout } = this;
    const ctx = { config, timeout, output: deps.output, redactor: deps.launch.redactor };
    return loadConnectionLists({ ...ctx, onToolsListed: deps.onToolsListed }, client, stale, onError);
  }

  /** A list changed on the server: read the lists again, unless a newer session took over. */
  private refreshLists(gen: number): void {
    const client = this.current?.client;
    if (gen !== this.generation || !client) return;
    void this.loadLists(client, () => gen !== this.generation).then((lists) => {
      if (gen !== this.generation) return;
      this.lists = lists;
      this.deps.onLists();
    });
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
    this.settleWaiters.wake(state);
  }

  /** For status lines: stdio or remote. */
  get transportKind(): 'stdio' | 'http' | 'sse' {
    return this.current?.transportKind ?? (isStdioConfig(this.config) ? 'stdio' : 'http');
  }
}
