import type { CatalogSnapshot } from '../../shared/domain/catalog.js';
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '../../shared/domain/mcp-types.js';
import type { ServerConfig } from '../../shared/domain/server-config.js';
import type {
  LogLine,
  ServerAuth,
  ServerState,
  ServerSummary,
  TraceEntry,
} from '../../shared/domain/server-state.js';
import type { CompletionValues, ImportResult } from '../../shared/ipc/contract.js';
import type { AuditLog } from './audit/audit-log.js';
import { auditToolCall, connectionAuditor } from './audit/host-audit.js';
import { unmaskConfig } from './config/config-mask.js';
import {
  parseDocument,
  parseEntry,
  type ConfigDocument,
  type ConfigEntry,
} from './config/config-document.js';
import type { ConfigStore } from './config/config-store.js';
import type { EraCache } from './connection/era-cache.js';
import type { LaunchContext } from './connection/launch.js';
import type { SandboxDetector } from './connection/sandbox/sandbox-detector.js';
import {
  ServerConnection,
  type ConnectionDeps,
  type ServerRequestHandlers,
} from './connection/server-connection.js';
import { ServerOutput } from './connection/server-output.js';
import type { HostEvents } from './host-events.js';
import { summarise } from './server-summary.js';
import { isInsideRoots } from './roots/root-guard.js';
import { HostFailure } from './util/errors.js';

export interface McpHostDeps {
  store: ConfigStore;
  eraCache: EraCache;
  events: HostEvents;
  launch: LaunchContext;
  handlers?: ServerRequestHandlers;
  backoff?: ConnectionDeps['backoff'];
  /** Batch window for live log/trace events. */
  outputFlushMs?: number;
  /** Where connection changes and tool calls are recorded (absent: not recorded). */
  audit?: AuditLog;
  /** Whether an OS sandbox is available for stdio servers (the system's by default). */
  sandbox?: SandboxDetector;
  /** OAuth for remote servers (see ConnectionDeps.authProviderFor). */
  authProviderFor?: ConnectionDeps['authProviderFor'];
  /** Where a server's OAuth sign-in stands, for its summary (absent: not shown). */
  authStatus?: (
    serverId: string,
    config: ServerConfig | undefined,
    state: ServerState,
  ) => ServerAuth | undefined;
}

interface Slot {
  entry: ConfigEntry;
  output: ServerOutput;
  connection?: ServerConnection;
}

/**
 * The registry of configured servers: owns the config document, one connection per valid
 * entry, and the combined catalog. Every mutation is saved atomically before it returns.
 * A bad entry is kept (and written back untouched) but never started.
 */
export class McpHost {
  private doc: ConfigDocument = { entries: [], rest: {}, key: 'mcpServers' };
  private readonly slots = new Map<string, Slot>();
  private readonly calls = new Map<string, AbortController>();
  private flushTimer?: NodeJS.Timeout;
  private readonly dirty = new Set<string>();
  private changeTimer?: NodeJS.Timeout;
  private toolEnabled: (serverId: string, tool: string) => boolean = () => true;

  constructor(private readonly deps: McpHostDeps) {}

  /** Tell every server the roots changed (see ServerConnection.rootsChanged: sandboxed ones restart). */
  async notifyRootsChanged(): Promise<void> {
    await Promise.all([...this.slots.values()].map((s) => s.connection?.rootsChanged()));
  }

  /** Complete a server's OAuth sign-in from its redirect query, then reconnect (see ServerConnection.finishAuth). */
  finishAuth = (id: string, params: URLSearchParams): Promise<void> => this.connection(id).finishAuth(params);

  /** Show a server as signing in while its browser flow runs. */
  markAuthenticating = (id: string): void => this.connection(id).markAuthenticating();

  /** Something outside the connections changed a summary (a sign-in started or ended): tell the UI. */
  announce(): void {
    this.emitServersSoon();
  }

  /** Which tools chat may offer (per-server and per-tool switches live in settings). */
  setToolEnabledPredicate(fn: (serverId: string, tool: string) => boolean): void {
    this.toolEnabled = fn;
    this.emitCatalogSoon();
  }

  /**
   * Load the config and start enabled servers (without waiting for them). `only` limits
   * which ones start, for a CLI command that needs a single server.
   */
  async init(only?: (name: string) => boolean): Promise<void> {
    this.doc = await this.deps.store.load();
    for (const entry of this.doc.entries) this.createSlot(entry);
    for (const slot of this.slots.values()) if (!only || only(slot.entry.name)) this.startIfEnabled(slot);
    this.emitServers();
  }

  get configPath(): string {
    return this.deps.store.path;
  }

  list(): ServerSummary[] {
    return [...this.slots.values()].map((s) => this.summary(s));
  }

  /** Wait until every server has settled (connected, failed or disabled). */
  async whenSettled(timeoutMs: number): Promise<ServerSummary[]> {
    await Promise.all([...this.slots.values()].map((s) => s.connection?.whenSettled(timeoutMs)));
    return this.list();
  }

  async add(name: string, config: ServerConfig): Promise<ServerSummary> {
    if (this.slots.has(name))
      throw new HostFailure('server_exists', `a server named "${name}" already exists`);
    const entry: ConfigEntry = { name, ok: true, config };
    this.doc.entries.push(entry);
    await this.save();
    const slot = this.createSlot(entry);
    this.startIfEnabled(slot);
    this.emitServers();
    return this.summary(slot);
  }

  async update(id: string, config: ServerConfig): Promise<ServerSummary> {
    const slot = this.slot(id);
    const merged = unmaskConfig(config, slot.entry.ok ? slot.entry.config : undefined);
    const entry: ConfigEntry = { name: id, ok: true, config: merged };
    this.replaceEntry(id, entry);
    await this.save();
    await slot.connection?.stop();
    slot.entry = entry;
    slot.connection = this.newConnection(id, merged, slot.output);
    this.startIfEnabled(slot);
    this.emitServers();
    return this.summary(slot);
  }

  async remove(id: string): Promise<void> {
    const slot = this.slot(id);
    this.doc.entries = this.doc.entries.filter((e) => e.name !== id);
    await this.save();
    this.slots.delete(id);
    await slot.connection?.stop();
    this.emitServers();
    this.emitCatalog();
  }

  async setEnabled(id: string, enabled: boolean): Promise<ServerSummary> {
    const slot = this.slot(id);
    if (!slot.entry.ok) throw new HostFailure('config_invalid', slot.entry.error);
    const config: ServerConfig = { ...slot.entry.config };
    if (enabled) delete config.disabled;
    else config.disabled = true;
    slot.entry = { name: id, ok: true, config };
    this.replaceEntry(id, slot.entry);
    await this.save();
    slot.connection?.reconfigure(config);
    if (enabled) slot.connection?.start();
    else await slot.connection?.stop();
    this.emitServers();
    return this.summary(slot);
  }

  async restart(id: string): Promise<ServerSummary> {
    const slot = this.slot(id);
    if (!slot.connection)
      throw new HostFailure('config_invalid', slot.entry.ok ? 'not startable' : slot.entry.error);
    if (slot.entry.ok && slot.entry.config.disabled)
      throw new HostFailure('server_disabled', `server "${id}" is disabled; enable it first`);
    await slot.connection.restart();
    return this.summary(slot);
  }

  /** Merge an `mcpServers` document in; existing names are skipped, never overwritten. */
  async import(json: string): Promise<ImportResult> {
    let incoming: ConfigDocument;
    try {
      incoming = parseDocument(json);
    } catch (error) {
      throw new HostFailure('import_invalid', (error as Error).message);
    }
    const result: ImportResult = { added: [], skipped: [] };
    const fresh: Slot[] = [];
    for (const e of incoming.entries) {
      if (this.slots.has(e.name))
        result.skipped.push({ name: e.name, reason: 'a server with this name already exists' });
      else if (!e.ok) result.skipped.push({ name: e.name, reason: e.error });
      else {
        const entry = parseEntry(e.name, e.config);
        this.doc.entries.push(entry);
        fresh.push(this.createSlot(entry));
        result.added.push(e.name);
      }
    }
    if (fresh.length) await this.save();
    for (const s of fresh) this.startIfEnabled(s);
    this.emitServers();
    return result;
  }

  /** A server's current (unmasked) config, for policy decisions inside the host. */
  serverConfig(id: string): ServerConfig | undefined {
    const e = this.slots.get(id)?.entry;
    return e?.ok ? e.config : undefined;
  }

  log(id: string): LogLine[] {
    return this.slot(id).output.lines();
  }

  trace(id: string): TraceEntry[] {
    return this.slot(id).output.traceEntries();
  }

  catalog(): CatalogSnapshot {
    const snap: CatalogSnapshot = { tools: [], resources: [], templates: [], prompts: [] };
    for (const [serverId, slot] of this.slots) {
      const c = slot.connection;
      if (!c || c.state.kind !== 'connected') continue;
      const lists = c.catalog;
      for (const tool of lists.tools)
        snap.tools.push({ serverId, tool, enabled: this.toolEnabled(serverId, tool.name) });
      for (const resource of lists.resources) snap.resources.push({ serverId, resource });
      for (const template of lists.templates) snap.templates.push({ serverId, template });
      for (const prompt of lists.prompts) snap.prompts.push({ serverId, prompt });
    }
    return snap;
  }

  /** Call a tool; `callId` lets a later cancel() find it. */
  async callTool(
    serverId: string,
    tool: string,
    args: Record<string, unknown>,
    opts: {
      callId?: string;
      timeoutMs?: number;
      onProgress?: (p: { progress: number; total?: number; message?: string }) => void;
    } = {},
  ): Promise<CallToolResult> {
    const connection = this.connection(serverId);
    const controller = new AbortController();
    if (opts.callId) {
      if (this.calls.has(opts.callId))
        throw new HostFailure('duplicate_call', `call id "${opts.callId}" is already in flight`);
      this.calls.set(opts.callId, controller);
    }
    const audited = auditToolCall(this.deps.audit, serverId, tool, args, opts.callId);
    try {
      const result = await connection.callTool(tool, args, {
        signal: controller.signal,
        timeoutMs: opts.timeoutMs,
        onProgress: opts.onProgress,
      });
      audited.ok(result);
      return result;
    } catch (error) {
      // The SDK reports every abort as a REQUEST_TIMEOUT SdkError; a cancel is not a timeout.
      const thrown: unknown =
        controller.signal.aborted && controller.signal.reason instanceof HostFailure
          ? controller.signal.reason
          : error;
      audited.failed(thrown);
      throw thrown;
    } finally {
      if (opts.callId) this.calls.delete(opts.callId);
    }
  }

  /** Cancel an in-flight call: the SDK sends notifications/cancelled to the server. */
  cancel(callId: string): boolean {
    const c = this.calls.get(callId);
    if (!c) return false;
    c.abort(new HostFailure('cancelled', 'cancelled by the user'));
    return true;
  }

  /**
   * Read a resource. A file:// URI must lie inside the shared folders (realpath, no `..` or
   * symlink escapes), checked before anything reaches the server: the host should not fetch
   * (and show, or hand to a model) a file the person did not share. With no roots configured
   * nothing is shared yet and reads keep working as before the roots feature; the person has
   * not drawn a boundary, so there is none to enforce. Other schemes are the server's own.
   */
  async readResource(serverId: string, uri: string): Promise<ReadResourceResult> {
    const connection = this.connection(serverId);
    const roots = this.deps.handlers?.listRoots?.() ?? [];
    if (roots.length > 0 && /^file:/i.test(uri.trim())) {
      const verdict = await isInsideRoots(uri.trim(), roots);
      if (!verdict.ok)
        throw new HostFailure('outside_roots', `refused to read ${uri}: ${verdict.reason}`, { uri });
    }
    return connection.readResource(uri);
  }

  getPrompt(serverId: string, name: string, args: Record<string, string>): Promise<GetPromptResult> {
    return this.connection(serverId).getPrompt(name, args);
  }

  complete(
    serverId: string,
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
    argument: { name: string; value: string },
    context?: { arguments: Record<string, string> },
  ): Promise<CompletionValues> {
    return this.connection(serverId).complete(ref, argument, context);
  }

  /** Stop every server (process trees included) and flush writes. */
  async dispose(): Promise<void> {
    clearTimeout(this.flushTimer);
    clearTimeout(this.changeTimer);
    clearTimeout(this.catalogTimer);
    for (const c of this.calls.values()) c.abort(new HostFailure('cancelled', 'the host is shutting down'));
    await Promise.all([...this.slots.values()].map((s) => s.connection?.stop()));
    await this.deps.store.flush();
  }

  private createSlot(entry: ConfigEntry): Slot {
    const output = new ServerOutput(
      this.deps.launch.redactor,
      () => this.scheduleOutputFlush(entry.name),
      () => this.deps.events.hasListeners('server.output'),
    );
    const slot: Slot = { entry, output };
    if (entry.ok) slot.connection = this.newConnection(entry.name, entry.config, output);
    else output.note(`not started: ${entry.error}`);
    this.slots.set(entry.name, slot);
    return slot;
  }

  private newConnection(id: string, config: ServerConfig, output: ServerOutput): ServerConnection {
    const audit = connectionAuditor(this.deps.audit, id, () => connection.transportKind);
    const connection: ServerConnection = new ServerConnection(id, config, {
      launch: this.deps.launch,
      eraCache: this.deps.eraCache,
      output,
      handlers: this.deps.handlers ?? {},
      backoff: this.deps.backoff,
      ...(this.deps.sandbox ? { sandbox: this.deps.sandbox } : {}),
      ...(this.deps.authProviderFor ? { authProviderFor: this.deps.authProviderFor } : {}),
      onState: (state: ServerState) => {
        output.note(`state: ${state.kind}`);
        audit(state);
        this.emitServersSoon();
      },
      onLists: () => this.emitCatalogSoon(),
    });
    return connection;
  }

  private startIfEnabled(slot: Slot): void {
    if (slot.entry.ok && !slot.entry.config.disabled) slot.connection?.start();
  }

  private slot(id: string): Slot {
    const s = this.slots.get(id);
    if (!s) throw new HostFailure('unknown_server', `no server named "${id}"`);
    return s;
  }

  private connection(id: string): ServerConnection {
    const slot = this.slot(id);
    if (!slot.connection)
      throw new HostFailure('config_invalid', slot.entry.ok ? 'not startable' : slot.entry.error);
    return slot.connection;
  }

  private replaceEntry(id: string, entry: ConfigEntry): void {
    this.doc.entries = this.doc.entries.map((e) => (e.name === id ? entry : e));
  }

  private save(): Promise<void> {
    return this.deps.store.save(this.doc);
  }

  private summary(slot: Slot): ServerSummary {
    const summary = summarise(slot.entry, slot.connection);
    const auth = this.deps.authStatus?.(
      slot.entry.name,
      slot.entry.ok ? slot.entry.config : undefined,
      summary.state,
    );
    return auth ? { ...summary, auth } : summary;
  }

  private emitServers(): void {
    this.deps.events.emit('servers.changed', this.list());
  }

  /** State changes come in bursts (connect, lists, connected): coalesce into one event. */
  private emitServersSoon(): void {
    if (!this.deps.events.hasListeners('servers.changed')) return;
    clearTimeout(this.changeTimer);
    this.changeTimer = setTimeout(() => this.emitServers(), 15);
  }

  private emitCatalog(): void {
    this.deps.events.emit('catalog.changed', this.catalog());
  }

  private catalogTimer?: NodeJS.Timeout;
  private emitCatalogSoon(): void {
    this.emitServersSoon();
    if (!this.deps.events.hasListeners('catalog.changed')) return;
    clearTimeout(this.catalogTimer);
    this.catalogTimer = setTimeout(() => this.emitCatalog(), 15);
  }

  private scheduleOutputFlush(id: string): void {
    this.dirty.add(id);
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      for (const name of this.dirty) {
        const slot = this.slots.get(name);
        if (!slot) continue;
        const { log, trace } = slot.output.drain();
        if (log.length || trace.length) this.deps.events.emit('server.output', { id: name, log, trace });
      }
      this.dirty.clear();
    }, this.deps.outputFlushMs ?? 200);
  }
}
