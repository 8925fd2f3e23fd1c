import { auth, type AuthProvider, type Client, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { isAuthRequired } from '../auth/auth-errors.js';
import type {
  CallToolResult,
  GetPromptResult,
  ReadResourceResult,
} from '../../../shared/domain/mcp-types.js';
import { isStdioConfig, type ServerConfig } from '../../../shared/domain/server-config.js';
import type { HostError, SandboxState, ServerState } from '../../../shared/domain/server-state.js';
import type { CompletionValues } from '../../../shared/ipc/contract.js';
import { emptyLists, fetchLists, type ServerLists } from '../catalog/server-catalog.js';
import { toolFilter } from '../catalog/tool-filter.js';
import { HostFailure, toHostError } from '../util/errors.js';
import { openClient, type OpenedClient } from './client-factory.js';
import {
  clientCapabilities,
  closeOpened,
  describeServer,
  installHandlers,
  type ServerRequestHandlers,
} from './client-session.js';
import type { EraCache } from './era-cache.js';
import { launchKey, planLaunch, type LaunchContext } from './launch.js';
import { killSnapshot, snapshotTree, type ProcessSnapshot } from './process-tree.js';
import { systemSandboxDetector, type SandboxDetector } from './sandbox/sandbox-detector.js';
import { describeSandbox, sandboxLaunch, sandboxStateOf } from './sandbox/sandbox-launch.js';
import type { ServerOutput } from './server-output.js';
import { tapTransport } from './trace-tap.js';

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
  authProviderFor?: (serverId: string, url: URL) => Promise<AuthProvider | OAuthClientProvider | undefined>;
}

const DEFAULT_TIMEOUT = 60_000;
const DEFAULT_BACKOFF = { baseMs: 500, maxMs: 30_000, maxAttempts: 6 };

/** Options for one tools/call. */
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  onProgress?: (p: { progress: number; total?: number; message?: string }) => void;
}

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

  constructor(
    readonly id: string,
    private config: ServerConfig,
    private readonly deps: ConnectionDeps,
  ) {
    this.backoff = deps.backoff ?? DEFAULT_BACKOFF;
    this.sandboxDetector = deps.sandbox ?? systemSandboxDetector;
  }

  get state(): ServerState {
    return this.stateValue;
  }

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
    void this.connect(++this.generation, 'first');
  }

  /** Stop: the process tree is gone when this resolves. */
  async stop(): Promise<void> {
    this.generation++;
    clearTimeout(this.retryTimer);
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
    const settled = (s: ServerState) =>
      s.kind === 'connected' || s.kind === 'failed' || s.kind === 'disabled';
    if (settled(this.stateValue)) return Promise.resolve(this.stateValue);
    return new Promise((resolve) => {
      const started = Date.now();
      const poll = setInterval(() => {
        if (settled(this.stateValue) || Date.now() - started > timeoutMs) {
          clearInterval(poll);
          resolve(this.stateValue);
        }
      }, 20);
    });
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    opts: CallOptions = {},
  ): Promise<CallToolResult> {
    const client = this.connectedClient();
    if (!this.lists.tools.some((t) => t.name === name)) {
      throw new HostFailure('unknown_tool', `server "${this.id}" has no tool "${name}"`);
    }
    const result = await client.callTool(
      { name, arguments: args },
      {
        timeout: opts.timeoutMs ?? this.timeout,
        resetTimeoutOnProgress: true,
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(opts.onProgress ? { onprogress: opts.onProgress } : {}),
      },
    );
    return result as CallToolResult;
  }

  async readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    const client = this.connectedClient();
    return await client.readResource({ uri }, { timeout: this.timeout, signal });
  }

  async getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult> {
    const client = this.connectedClient();
    return await client.getPrompt({ name, arguments: args }, { timeout: this.timeout });
  }

  async complete(
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
    argument: { name: string; value: string },
    context?: { arguments: Record<string, string> },
  ): Promise<CompletionValues> {
    const client = this.connectedClient();
    if (!client.getServerCapabilities()?.completions) return { values: [] };
    const res = await client.complete(
      { ref, argument, ...(context ? { context } : {}) },
      { timeout: this.timeout },
    );
    return { values: res.completion.values, total: res.completion.total, hasMore: res.completion.hasMore };
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

  /**
   * Tell the server our roots changed. Only a connected 2025-era connection has a channel
   * for unsolicited notifications; a 2026-07-28 connection is stateless and the SDK offers
   * nothing to push there — such a server asks through an input_required round on its next
   * call and then receives the current list, so there is nothing to send. Returns whether a
   * notification went out.
   */
  async notifyRootsChanged(): Promise<boolean> {
    const client = this.current?.client;
    if (!this.deps.handlers.listRoots || this.stateValue.kind !== 'connected' || !client) return false;
    if ((client.getProtocolEra() ?? 'legacy') !== 'legacy') return false;
    try {
      await client.sendRootsListChanged();
      return true;
    } catch (error) {
      // A server that dropped mid-send reconnects and fetches the list afresh anyway.
      this.deps.output.note(
        `roots list_changed failed: ${toHostError(error, this.deps.launch.redactor).message}`,
      );
      return false;
    }
  }

  /** A sign-in for this server is under way (the flow controller shows it; cancel restarts). */
  markAuthenticating(): void {
    this.setState({ kind: 'authenticating', since: Date.now() });
  }

  /** Redeem a sign-in's redirect query (`code`; `iss` checked by the SDK, RFC 9207; `state` already compared), then reconnect. */
  async finishAuth(params: URLSearchParams): Promise<void> {
    const provider = this.authProvider;
    const code = params.get('code');
    if (!provider || !('redirectToAuthorization' in provider) || !this.serverUrl) {
      throw new HostFailure('no_sign_in', `server "${this.id}" has no sign-in in progress`);
    }
    if (!code) throw new HostFailure('sign_in_failed', 'the authorization server sent no code');
    const iss = params.get('iss');
    await auth(provider, {
      serverUrl: this.serverUrl,
      authorizationCode: code,
      ...(iss !== null ? { iss } : {}),
    });
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

  private async connect(gen: number, why: 'first' | 'retry'): Promise<void> {
    this.attempt++;
    if (why === 'first') this.setState({ kind: 'connecting', attempt: this.attempt });
    const output = this.deps.output;
    const key = launchKey(this.config);
    const prior = this.deps.eraCache.get(key);
    try {
      let plan = await planLaunch(this.id, this.config, this.deps.launch);
      if (gen !== this.generation) return;
      output.note(
        plan.kind === 'stdio'
          ? `starting: ${plan.command} ${plan.args.join(' ')}`
          : `connecting to ${plan.url.origin}${plan.url.pathname}`,
      );
      this.launchedSandbox = undefined;
      if (plan.kind === 'stdio' && this.sandboxed) {
        // The mounts are fixed for the life of the process: a roots change restarts it (McpHost).
        const sandboxed = sandboxLaunch(
          plan,
          (this.deps.handlers.listRoots?.() ?? []).map((r) => r.uri),
          this.sandboxDetector.detect(),
        );
        output.note(describeSandbox(sandboxed));
        this.launchedSandbox = sandboxed.state;
        plan = sandboxed.plan;
      }
      this.authProvider = undefined;
      if (plan.kind === 'http') {
        this.serverUrl = plan.url;
        // A configured Authorization header is the credential; OAuth would only fight it.
        const hasStatic = Object.keys(plan.headers).some((h) => h.toLowerCase() === 'authorization');
        if (!hasStatic) this.authProvider = await this.deps.authProviderFor?.(this.id, plan.url);
        if (gen !== this.generation) return;
      }
      const opened = await openClient(plan, {
        ...(this.authProvider ? { authProvider: this.authProvider } : {}),
        clientOptions: {
          capabilities: clientCapabilities(this.deps.handlers),
          listChanged: this.listChangedHandlers(gen),
        },
        prior,
        timeout: this.timeout,
        prepare: (transport, client) => {
          tapTransport(transport, (dir, msg) => output.record(dir, msg));
          const stderr = (transport as { stderr?: NodeJS.ReadableStream | null }).stderr;
          stderr?.setEncoding?.('utf8');
          stderr?.on('data', (chunk: string | Buffer) => output.stderr(String(chunk)));
          installHandlers(this.id, this.deps.handlers, this.deps.output, client);
        },
      });
      if (gen !== this.generation) {
        await closeOpened(opened);
        return;
      }
      if (opened.verdict) this.deps.eraCache.set(key, opened.verdict);
      this.current = opened;
      await this.rememberTree(opened);
      opened.client.onclose = () => this.onClosed(gen, opened);
      opened.client.onerror = (error) =>
        output.note(`transport error: ${toHostError(error, this.deps.launch.redactor).message}`);
      // A stateless (2026-07-28) connect with a cached verdict sends nothing before the
      // lists, so a missing or revoked token first shows here: that is "sign-in needed" too.
      let authError: unknown;
      this.lists = await this.loadLists(opened.client, (error) => {
        if (isAuthRequired(error)) authError ??= error;
      });
      if (authError !== undefined) throw authError;
      if (gen !== this.generation) return;
      // Servers often spawn their workers during start-up; take the snapshot again now.
      await this.rememberTree(opened);
      this.attempt = 0;
      this.setState({ kind: 'connected', info: describeServer(this.id, opened), since: Date.now() });
      this.deps.onLists();
    } catch (error) {
      if (gen !== this.generation) return;
      // A stale verdict (server changed eras) must not poison every later attempt.
      if (prior) this.deps.eraCache.delete(key);
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
    if (tree) void killSnapshot(tree);
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
      if (gen === this.generation) void this.connect(gen, 'retry');
    }, delay);
  }

  private async loadLists(client: Client, onError?: (error: unknown) => void): Promise<ServerLists> {
    const lists = await fetchLists(client, this.timeout, (what, error) => {
      onError?.(error);
      this.deps.output.note(`${what} failed: ${toHostError(error, this.deps.launch.redactor).message}`);
    });
    const allowed = toolFilter(this.config);
    return { ...lists, tools: lists.tools.filter((t) => allowed(t.name)) };
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
  }

  /** For status lines: stdio or remote. */
  get transportKind(): 'stdio' | 'http' | 'sse' {
    return this.current?.transportKind ?? (isStdioConfig(this.config) ? 'stdio' : 'http');
  }
}
