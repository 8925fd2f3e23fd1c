import type { CatalogSnapshot } from '../../shared/domain/catalog.js';
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '../../shared/domain/mcp-types.js';
import type { ServerConfig } from '../../shared/domain/server-config.js';
import type { LogLine, ServerState, ServerSummary, TraceEntry } from '../../shared/domain/server-state.js';
import type { CompletionValues, ImportResult } from '../../shared/ipc/contract.js';
import type { AuditLog } from './audit/audit-log.js';
import type { AuthHostPort } from './auth/auth-host-port.js';
import { Catalog, type ToolEnabledPredicate, type ToolTrustAnnotator } from './catalog/catalog.js';
import type { ConfigEntry } from './config/config-document.js';
import type { ConfigStore } from './config/config-store.js';
import type { EraCache } from './connection/era-cache.js';
import type { LaunchContext } from './connection/launch.js';
import type { SandboxDetector } from './connection/sandbox/sandbox-detector.js';
import type { ConnectionDeps, ServerRequestHandlers } from './connection/server-connection.js';
import type { CompletionRef, SessionRequests } from './connection/session-requests.js';
import type { HostEvents } from './host-events.js';
import type { PendingCounts } from './pending/pending-broker.js';
import { HostDiagnostics, type HostDiagnosticsSnapshot } from './servers/host-diagnostics.js';
import type { MetricsRecorder } from './metrics/metrics-recorder.js';
import { OutputPump } from './servers/output-pump.js';
import type { Attribution } from './servers/call-origins.js';
import { ServerCalls, type ToolCallOptions } from './servers/server-calls.js';
import { ServerRegistry, type AuthStatus, type ServerRegistryDeps } from './servers/server-registry.js';
import type { TaskService } from './tasks/task-service.js';
import type { Disposable } from './util/disposable.js';

export interface McpHostDeps {
  store: ConfigStore;
  eraCache: EraCache;
  events: HostEvents;
  launch: LaunchContext;
  handlers?: ServerRequestHandlers;
  backoff?: ConnectionDeps['backoff'];
  /** Every server's timeout for this run, over its config's (see ConnectionDeps.timeoutOverride). */
  timeoutOverride?: number;
  /** Batch window for live log/trace events. */
  outputFlushMs?: number;
  /** Where connection changes and tool calls are recorded (absent: not recorded). */
  audit?: AuditLog;
  /** Whether an OS sandbox is available for stdio servers (the system's by default). */
  sandbox?: SandboxDetector;
  /** OAuth for remote servers (see ConnectionDeps.authProviderFor). */
  authProviderFor?: ConnectionDeps['authProviderFor'];
  /** Where a server's OAuth sign-in stands, for its summary (absent: not shown). */
  authStatus?: AuthStatus;
  /** What the pending broker waits on, for diagnostics() (absent: reads as nothing). */
  pendingCounts?: () => PendingCounts;
  /** Where tool calls and connection changes are counted (absent: not counted). */
  metrics?: MetricsRecorder;
  /** Follows tool calls that servers run as tasks (absent: plain calls only). */
  tasks?: TaskService;
  /** Every successful tools/list, for the tool pins (see ServerRegistryDeps.onToolsListed). */
  onToolsListed?: ServerRegistryDeps['onToolsListed'];
}

/**
 * The MCP side of the host as one object for its callers (router, chat, CLI, tests): a thin
 * facade over the server registry (config and connections), the catalog, the requests made
 * of servers and the output pump. Each piece is its own class; this only wires them.
 */
export class McpHost implements AuthHostPort, Disposable {
  private readonly registry: ServerRegistry;
  private readonly catalogue: Catalog;
  private readonly calls: ServerCalls;
  private readonly pump: OutputPump;
  private readonly diag: HostDiagnostics;

  constructor(deps: McpHostDeps) {
    const { outputFlushMs, pendingCounts, metrics, tasks, ...rest } = deps;
    this.pump = new OutputPump(deps.events, (id) => this.registry.outputIfAny(id)?.drain(), outputFlushMs);
    this.registry = new ServerRegistry({
      ...rest,
      onOutput: (id) => this.pump.schedule(id),
      onLists: () => this.catalogue.changedSoon(),
      onRemoved: () => this.catalogue.changed(),
      ...(metrics ? { onState: (id, state) => metrics.connectionState(id, state) } : {}),
    });
    this.catalogue = new Catalog(this.registry, deps.events, () => this.registry.announce());
    this.calls = new ServerCalls({
      connection: (id) => this.registry.connection(id),
      ...(deps.handlers?.listRoots ? { listRoots: deps.handlers.listRoots } : {}),
      ...(deps.audit ? { audit: deps.audit } : {}),
      ...(metrics ? { metrics } : {}),
      ...(tasks ? { tasks } : {}),
      lastStderr: (id) => this.registry.outputIfAny(id)?.lastStderr(),
    });
    this.diag = new HostDiagnostics({
      connections: () => this.registry.connectionsById(),
      events: deps.events,
      ...(pendingCounts ? { pending: pendingCounts } : {}),
    });
  }

  /** Read-only counters (calls, SDK requests, pending, listeners, timers, processes) that drain to zero when idle. */
  diagnostics(): Promise<HostDiagnosticsSnapshot> {
    return this.diag.snapshot();
  }

  /** Tell every server the roots changed (see ServerConnection.rootsChanged: sandboxed ones restart). */
  notifyRootsChanged(): Promise<void> {
    return this.registry.notifyRootsChanged();
  }

  /** Complete a server's OAuth sign-in from its redirect query, then reconnect (see ServerConnection.finishAuth). */
  finishAuth(id: string, params: URLSearchParams): Promise<void> {
    return this.registry.connection(id).finishAuth(params);
  }

  /** Show a server as signing in while its browser flow runs. */
  markAuthenticating(id: string): void {
    this.registry.connection(id).markAuthenticating();
  }

  /** Something outside the connections changed a summary (a sign-in started or ended): tell the UI. */
  announce(): void {
    this.registry.announce();
  }

  /** Which tools chat may offer (per-server and per-tool switches live in settings). */
  setToolEnabledPredicate(fn: ToolEnabledPredicate): void {
    this.catalogue.setToolEnabledPredicate(fn);
  }

  /** Who fills in each catalog tool's pin and warnings (see electron/host/tool-trust/). */
  setToolTrustAnnotator(fn: ToolTrustAnnotator): void {
    this.catalogue.setToolTrustAnnotator(fn);
  }

  /** Something the catalog shows changed outside the lists (a tool's pin was accepted): announce it. */
  refreshCatalog(): void {
    this.catalogue.changedSoon();
  }

  /** Load the config and start enabled servers (without waiting); `only` limits which start (a CLI command). */
  init(only?: (name: string) => boolean): Promise<void> {
    return this.registry.init(only);
  }

  get configPath(): string {
    return this.registry.configPath;
  }

  list(): ServerSummary[] {
    return this.registry.list();
  }

  /** A server's state as its summary shows it; undefined for an unknown server. */
  serverState(id: string): ServerState | undefined {
    return this.registry.stateOf(id);
  }

  /** Wait until every server has settled (connected, failed or disabled). */
  whenSettled(timeoutMs: number): Promise<ServerSummary[]> {
    return this.registry.whenSettled(timeoutMs);
  }

  add(name: string, config: ServerConfig): Promise<ServerSummary> {
    return this.registry.add(name, config);
  }

  update(id: string, config: ServerConfig): Promise<ServerSummary> {
    return this.registry.update(id, config);
  }

  remove(id: string): Promise<void> {
    return this.registry.remove(id);
  }

  setEnabled(id: string, enabled: boolean): Promise<ServerSummary> {
    return this.registry.setEnabled(id, enabled);
  }

  restart(id: string): Promise<ServerSummary> {
    return this.registry.restart(id);
  }

  /** Merge an `mcpServers` document in; existing names are skipped, never overwritten. */
  import(json: string): Promise<ImportResult> {
    return this.registry.import(json);
  }

  /** Add parsed entries in one save (see ServerRegistry.importEntries); existing names are skipped. */
  importEntries(entries: readonly ConfigEntry[], opts: { start?: boolean } = {}): Promise<ImportResult> {
    return this.registry.importEntries(entries, opts);
  }

  /** A server's current (unmasked) config, for policy decisions inside the host. */
  serverConfig(id: string): ServerConfig | undefined {
    return this.registry.serverConfig(id);
  }

  log(id: string): LogLine[] {
    return this.registry.output(id).lines();
  }

  /** Add a line to a server's log as if the server had logged it (an app view's notifications/message). */
  noteServerLog(id: string, text: string): void {
    this.registry.output(id).note(text, 'server-log');
  }

  trace(id: string): TraceEntry[] {
    return this.registry.output(id).traceEntries();
  }

  catalog(): CatalogSnapshot {
    return this.catalogue.snapshot();
  }

  /** Call a tool; `callId` lets a later cancel() find it. */
  callTool(
    serverId: string,
    tool: string,
    args: Record<string, unknown>,
    opts: ToolCallOptions = {},
  ): Promise<CallToolResult> {
    // server-calls.ts names the server and tool in every failure (call-failure.ts).
    return this.diag.track(serverId, () => this.calls.callTool(serverId, tool, args, opts));
  }

  /** Cancel an in-flight call: the SDK sends notifications/cancelled to the server. */
  cancel(callId: string): boolean {
    return this.calls.cancel(callId);
  }

  /** The tool call a sampling/elicitation request arriving now from `serverId` belongs to (see CallOrigins). */
  attribute(serverId: string): Attribution | undefined {
    return this.calls.attribute(serverId);
  }

  /** Read a resource; a file:// URI must lie inside the shared folders (see ServerCalls.readResource). */
  readResource(serverId: string, uri: string): Promise<ReadResourceResult> {
    return this.calls.readResource(serverId, uri);
  }

  /** The requests of a server's live session (subscriptions, log level); throws unknown_server. */
  session(serverId: string): SessionRequests {
    return this.registry.connection(serverId).requests;
  }

  getPrompt(serverId: string, name: string, args: Record<string, string>): Promise<GetPromptResult> {
    return this.calls.getPrompt(serverId, name, args);
  }

  complete(
    serverId: string,
    ref: CompletionRef,
    argument: { name: string; value: string },
    context?: { arguments: Record<string, string> },
  ): Promise<CompletionValues> {
    return this.calls.complete(serverId, ref, argument, context);
  }

  /** Stop every server (process trees included) and flush writes. */
  async dispose(): Promise<void> {
    this.pump.dispose();
    this.catalogue.dispose();
    this.calls.dispose();
    await this.registry.dispose();
  }
}
