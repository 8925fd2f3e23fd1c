import type { Tool } from '../../../shared/domain/mcp-types.js';
import type { ServerConfig } from '../../../shared/domain/server-config.js';
import type { ServerAuth, ServerState, ServerSummary } from '../../../shared/domain/server-state.js';
import type { ImportResult } from '../../../shared/ipc/contract.js';
import type { AuditLog } from '../audit/audit-log.js';
import { connectionAuditor } from '../audit/host-audit.js';
import type { ServerLists } from '../catalog/server-catalog.js';
import { parseEntry, type ConfigDocument, type ConfigEntry } from '../config/config-document.js';
import { parseImport } from '../config/import-document.js';
import { unmaskConfig } from '../config/config-mask.js';
import type { ConfigStore } from '../config/config-store.js';
import type { EraCache } from '../connection/era-cache.js';
import type { LaunchContext } from '../connection/launch.js';
import type { SandboxDetector } from '../connection/sandbox/sandbox-detector.js';
import {
  ServerConnection,
  type ConnectionDeps,
  type ServerRequestHandlers,
} from '../connection/server-connection.js';
import { ServerOutput } from '../connection/server-output.js';
import type { HostEvents } from '../host-events.js';
import type { Disposable } from '../util/disposable.js';
import { HostFailure } from '../util/errors.js';
import { summarise } from './server-summary.js';

/** Where a server's OAuth sign-in stands, for its summary (see AuthService.statusOf). */
export type AuthStatus = (
  serverId: string,
  config: ServerConfig | undefined,
  state: ServerState,
) => ServerAuth | undefined;

/** What the registry needs to build, persist and announce connections. */
export interface ServerRegistryDeps {
  store: ConfigStore;
  eraCache: EraCache;
  events: HostEvents;
  launch: LaunchContext;
  handlers?: ServerRequestHandlers;
  backoff?: ConnectionDeps['backoff'];
  stdioProbeMs?: ConnectionDeps['stdioProbeMs'];
  /** Every server's timeout for this run, over its config's (the CLI's --timeout). */
  timeoutOverride?: number;
  audit?: AuditLog;
  sandbox?: SandboxDetector;
  authProviderFor?: ConnectionDeps['authProviderFor'];
  authStatus?: AuthStatus;
  /** A server wrote log or trace lines (the output pump batches them). */
  onOutput: (serverId: string) => void;
  /** A server's lists changed (connected, list_changed, disconnected). */
  onLists: () => void;
  /** A server's tools/list succeeded (see ConnectionDeps.onToolsListed); compared with its pins. */
  onToolsListed?: (serverId: string, config: ServerConfig, tools: readonly Tool[]) => void;
  /** A server was removed: its lists are gone at once. */
  onRemoved: () => void;
  /** Every state change of every connection, as it happens (metrics count connects and drops). */
  onState?: (serverId: string, state: ServerState) => void;
}

interface Slot {
  entry: ConfigEntry;
  output: ServerOutput;
  connection?: ServerConnection;
}

/** How long a burst of state changes (connecting, lists, connected) is coalesced. */
const COALESCE_MS = 15;

/**
 * The configured servers: owns the config document and one connection per valid entry.
 * Every mutation is saved atomically before it returns. A bad entry is kept (and written
 * back untouched) but never started.
 */
export class ServerRegistry implements Disposable {
  private doc: ConfigDocument = { entries: [], rest: {}, key: 'mcpServers' };
  private readonly slots = new Map<string, Slot>();
  /** Connections stopped only to be replaced by an edit: their "disabled" is not the person's. */
  private readonly retiring = new WeakSet<ServerConnection>();
  private changeTimer?: NodeJS.Timeout;

  constructor(private readonly deps: ServerRegistryDeps) {}

  /** Load the config and start enabled servers (without waiting); `only` limits which start. */
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

  /** A server's state as its summary shows it (an invalid entry is failed); undefined if unknown. */
  stateOf(id: string): ServerState | undefined {
    const slot = this.slots.get(id);
    return slot ? summarise(slot.entry, slot.connection).state : undefined;
  }

  /** Wait until every server has settled (connected, failed or disabled), or time runs out. */
  async whenSettled(timeoutMs: number): Promise<ServerSummary[]> {
    await Promise.all(this.connections().map((c) => c.whenSettled(timeoutMs)));
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
    const old = slot.connection;
    if (old) {
      this.retiring.add(old);
      if (old.state.kind !== 'disabled') slot.output.note('restarting with the edited settings');
      await old.stop();
    }
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
    this.deps.onRemoved();
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
    // A restart stops the process to start it again: it disables nothing, so no "disabled" is logged or shown.
    const connection = slot.connection;
    slot.output.note('restarting');
    this.retiring.add(connection);
    try {
      await connection.stop();
    } finally {
      this.retiring.delete(connection);
    }
    connection.start();
    return this.summary(slot);
  }

  /** Merge a pasted config in (see import-document.ts); existing names are skipped, never overwritten. */
  async import(json: string): Promise<ImportResult> {
    // Awaited here so a document that does not parse rejects rather than throws.
    return await this.importEntries(parseImport(json));
  }

  /**
   * Add parsed entries in one save; existing names are skipped, never overwritten. `start: false`
   * only saves them (the CLI's import, which exits right after).
   */
  async importEntries(
    incoming: readonly ConfigEntry[],
    opts: { start?: boolean } = {},
  ): Promise<ImportResult> {
    const result: ImportResult = { added: [], skipped: [] };
    const fresh: Slot[] = [];
    for (const e of incoming) {
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
    if (opts.start !== false) for (const s of fresh) this.startIfEnabled(s);
    this.emitServers();
    return result;
  }

  /** A server's current (unmasked) config, for policy decisions inside the host. */
  serverConfig(id: string): ServerConfig | undefined {
    const e = this.slots.get(id)?.entry;
    return e?.ok ? e.config : undefined;
  }

  /** The server's output buffer (log and trace); throws unknown_server. */
  output(id: string): ServerOutput {
    return this.slot(id).output;
  }

  /** The output of a server that still exists, for the pump (a removed one has nothing to send). */
  outputIfAny(id: string): ServerOutput | undefined {
    return this.slots.get(id)?.output;
  }

  /** The server's connection; throws unknown_server, or config_invalid for a bad entry. */
  connection(id: string): ServerConnection {
    const slot = this.slot(id);
    if (!slot.connection)
      throw new HostFailure('config_invalid', slot.entry.ok ? 'not startable' : slot.entry.error);
    return slot.connection;
  }

  /** Every server with a connection object (valid entries), for the host's diagnostics. */
  *connectionsById(): Iterable<[serverId: string, connection: ServerConnection]> {
    for (const [serverId, slot] of this.slots) if (slot.connection) yield [serverId, slot.connection];
  }

  /** The lists of every connected server, for the catalog. */
  *connectedLists(): Iterable<[serverId: string, lists: ServerLists]> {
    for (const [serverId, slot] of this.slots) {
      const c = slot.connection;
      if (c && c.state.kind === 'connected') yield [serverId, c.catalog];
    }
  }

  /** Tell every server the roots changed (see ServerConnection.rootsChanged: sandboxed ones restart). */
  async notifyRootsChanged(): Promise<void> {
    await Promise.all(this.connections().map((c) => c.rootsChanged()));
  }

  /** State changes come in bursts (connect, lists, connected): coalesce into one event. */
  announce(): void {
    if (!this.deps.events.hasListeners('servers.changed')) return;
    clearTimeout(this.changeTimer);
    this.changeTimer = setTimeout(() => this.emitServers(), COALESCE_MS);
  }

  /** Stop every server (process trees included) and flush the config file. */
  async dispose(): Promise<void> {
    clearTimeout(this.changeTimer);
    await Promise.all(this.connections().map((c) => c.stop()));
    await this.deps.store.flush();
  }

  private connections(): ServerConnection[] {
    return [...this.slots.values()].flatMap((s) => (s.connection ? [s.connection] : []));
  }

  private createSlot(entry: ConfigEntry): Slot {
    const output = new ServerOutput(
      this.deps.launch.redactor,
      () => this.deps.onOutput(entry.name),
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
      ...(this.deps.stdioProbeMs !== undefined ? { stdioProbeMs: this.deps.stdioProbeMs } : {}),
      ...(this.deps.timeoutOverride !== undefined ? { timeoutOverride: this.deps.timeoutOverride } : {}),
      ...(this.deps.sandbox ? { sandbox: this.deps.sandbox } : {}),
      ...(this.deps.authProviderFor ? { authProviderFor: this.deps.authProviderFor } : {}),
      onState: (state: ServerState) => {
        audit(state);
        // An edit stops the old connection to start a new one: that stop disabled nothing.
        if (state.kind === 'disabled' && this.retiring.has(connection)) return;
        output.note(`state: ${state.kind}`);
        this.deps.onState?.(id, state);
        this.announce();
      },
      onLists: () => this.deps.onLists(),
      onNetwork: () => this.announce(),
      ...(this.deps.onToolsListed ? { onToolsListed: this.toolsListed(id, output) } : {}),
    });
    return connection;
  }

  /** A failure to compare pins is the host's, not the server's: noted, never failing the connect. */
  private toolsListed(id: string, output: ServerOutput): ConnectionDeps['onToolsListed'] {
    return (tools, config) => {
      try {
        this.deps.onToolsListed?.(id, config, tools);
      } catch (error) {
        output.note(`tool pins not compared: ${(error as Error).message}`);
      }
    };
  }

  private startIfEnabled(slot: Slot): void {
    if (slot.entry.ok && !slot.entry.config.disabled) slot.connection?.start();
  }

  private slot(id: string): Slot {
    const s = this.slots.get(id);
    if (!s) throw new HostFailure('unknown_server', `no server named "${id}"`);
    return s;
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
}
