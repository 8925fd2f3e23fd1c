import type { CatalogTool } from '../../../shared/domain/catalog.js';
import type { Tool } from '../../../shared/domain/mcp-types.js';
import type { ServerConfig } from '../../../shared/domain/server-config.js';
import type { ToolChange, ToolTrust, ToolWarning } from '../../../shared/domain/tool-trust.js';
import type { AuditLog } from '../audit/audit-log.js';
import { launchKey } from '../config/launch-key.js';
import type { Disposable } from '../util/disposable.js';
import { HostFailure } from '../util/errors.js';
import { fingerprintDefinition, toolDefinition } from './fingerprint.js';
import {
  acceptChange,
  comparePins,
  noteApproval,
  toolChangeOf,
  type ListedTool,
  type PinEvent,
} from './pin-records.js';
import type { PinStore } from './pin-store.js';

/** The warnings of every catalog tool at once (shadowing compares servers); see tool-trust/. */
export type ToolWarningSource = (tools: readonly CatalogTool[]) => Map<CatalogTool, ToolWarning[]>;

/** How a change came to be accepted, for the audit record. */
export type AcceptedVia = 'approval' | 'review' | 'trust';

/** What the service needs of the host. */
export interface ToolTrustDeps {
  pins: PinStore;
  /** A server's current config (its identity is its name plus the hash of this). */
  configOf: (serverId: string) => ServerConfig | undefined;
  audit?: AuditLog;
  /** The catalog changed in a way the UI must see (a pin accepted): re-announce it. */
  onChange?: () => void;
  /** Told when a write of the pins file fails (the pins stay right in memory). */
  onError?: (message: string) => void;
  now?: () => Date;
}

/**
 * The one place that knows whether a tool can be trusted as it reads now: it compares every
 * successful tools/list with the pins (pin-records.ts), records changes in the audit log,
 * annotates every catalog tool with its fingerprint, pin status and warnings (the catalog's
 * one ToolTrustAnnotator), answers the policy's "did this tool change since it was
 * approved?", and accepts a change once a person has reviewed it.
 */
export class ToolTrustService implements Disposable {
  /** Fingerprints by tool object: a list's tools are the same objects until it is fetched again. */
  private readonly prints = new WeakMap<Tool, string>();
  private warningSource: ToolWarningSource = () => new Map();
  private readonly now: () => Date;

  constructor(private readonly deps: ToolTrustDeps) {
    this.now = deps.now ?? (() => new Date());
    const problem = deps.pins.problem;
    if (problem)
      deps.audit?.append({
        kind: 'tool-change',
        action: 'pins-unreadable',
        details: { message: problem.message },
      });
  }

  /** Replace the function that finds warnings (poisoning, shadowing); none by default. */
  setWarningSource(fn: ToolWarningSource): void {
    this.warningSource = fn;
  }

  /** A tool's fingerprint (cached per tool object). */
  fingerprint(tool: Tool): string {
    let print = this.prints.get(tool);
    if (print === undefined) {
      print = fingerprintDefinition(toolDefinition(tool));
      this.prints.set(tool, print);
    }
    return print;
  }

  /**
   * A server listed its tools successfully (connect, reconnect, list_changed): compare them
   * with its pins. `tools` is the whole list, before the config's include/exclude filters,
   * so narrowing a filter never reads as a removed tool.
   */
  observe(serverId: string, config: ServerConfig, tools: readonly Tool[]): void {
    const listed: ListedTool[] = tools.map((tool) => ({
      definition: toolDefinition(tool),
      fingerprint: this.fingerprint(tool),
    }));
    const events = comparePins(this.deps.pins.pinsOf(serverId, launchKey(config)), listed, this.stamp());
    if (!events.length) return;
    for (const e of events) this.record(serverId, e);
    this.save();
  }

  /** The annotator the catalog calls on every snapshot: fills in each tool's `trust`. */
  readonly annotate = (tools: readonly CatalogTool[]): void => {
    const keys = new Map<string, string | undefined>();
    const keyOf = (serverId: string): string | undefined => {
      if (!keys.has(serverId)) {
        const config = this.deps.configOf(serverId);
        keys.set(serverId, config ? launchKey(config) : undefined);
      }
      return keys.get(serverId);
    };
    let warnings = new Map<CatalogTool, ToolWarning[]>();
    try {
      warnings = this.warningSource(tools);
    } catch {
      // A heuristic that throws must not take the catalog down: its warnings are just missing.
    }
    for (const entry of tools) {
      const fingerprint = this.fingerprint(entry.tool);
      const key = keyOf(entry.serverId);
      const pin = key ? this.deps.pins.peek(entry.serverId, key)?.get(entry.tool.name) : undefined;
      const changed = pin !== undefined && (pin.change !== undefined || pin.fingerprint !== fingerprint);
      const trust: ToolTrust = {
        fingerprint,
        pin: changed ? 'changed' : 'pinned',
        ...(changed && pin.change ? { changedAt: pin.change.changedAt } : {}),
        warnings: warnings.get(entry) ?? [],
      };
      entry.trust = trust;
    }
  };

  /** A tool's change since it was pinned, if it has one (for the policy and the approval card). */
  changeOf(serverId: string, tool: string): ToolChange | undefined {
    const pin = this.pinOf(serverId, tool);
    return pin ? toolChangeOf(serverId, pin) : undefined;
  }

  /** Every changed tool of every configured server (the Tools view's review list). */
  changes(): ToolChange[] {
    const out: ToolChange[] = [];
    for (const s of this.deps.pins.all()) {
      const config = this.deps.configOf(s.serverId);
      if (!config || launchKey(config) !== s.launchKey) continue;
      for (const pin of s.tools.values()) {
        const change = toolChangeOf(s.serverId, pin);
        if (change) out.push(change);
      }
    }
    return out;
  }

  /**
   * Accept a tool's change: the version the person saw becomes its pin and its standing
   * approvals apply again. `fingerprint` names that version (absent: whatever it is now);
   * a tool that changed again since is refused, so nobody accepts what they did not see.
   */
  async accept(serverId: string, tool: string, via: AcceptedVia, fingerprint?: string): Promise<boolean> {
    const pin = this.pinOf(serverId, tool);
    if (!pin?.change) return false;
    const from = pin.fingerprint;
    const seen = fingerprint ?? pin.change.fingerprint;
    if (!acceptChange(pin, seen, this.stamp())) {
      if (via !== 'review') return false;
      throw new HostFailure(
        'invalid_request',
        `"${tool}" on "${serverId}" changed again since you reviewed it; review the new version`,
      );
    }
    this.deps.audit?.append({
      kind: 'tool-change',
      serverId,
      action: 'accepted',
      details: { tool, oldFingerprint: from, newFingerprint: seen, via },
    });
    await this.deps.pins.save();
    this.deps.onChange?.();
    return true;
  }

  /** A person allowed a call of `tool` as `fingerprint` reads: its pin counts as approved from now. */
  async noteApproved(serverId: string, tool: string, fingerprint: string): Promise<void> {
    if (noteApproval(this.pinOf(serverId, tool), fingerprint, this.stamp())) await this.deps.pins.save();
  }

  /** A person trusted a server: every change of its tools they could see is accepted. */
  async acceptAll(serverId: string): Promise<void> {
    for (const change of this.changes())
      if (change.serverId === serverId) await this.accept(serverId, change.tool, 'trust');
  }

  /** A server was removed: its pins go with it (a new server of that name starts clean). */
  async forget(serverId: string): Promise<void> {
    if (this.deps.pins.forget(serverId)) await this.deps.pins.save();
  }

  /** Resolves once every queued write has landed. */
  flush(): Promise<void> {
    return this.deps.pins.flush();
  }

  async dispose(): Promise<void> {
    await this.flush().catch(() => undefined);
  }

  private pinOf(serverId: string, tool: string) {
    const config = this.deps.configOf(serverId);
    return config ? this.deps.pins.peek(serverId, launchKey(config))?.get(tool) : undefined;
  }

  private record(serverId: string, e: PinEvent): void {
    // First sight is no event worth a line each (a server with 2,000 tools would flood the log).
    if (e.kind === 'pinned') return;
    const details: Record<string, unknown> =
      e.kind === 'changed'
        ? { tool: e.tool, oldFingerprint: e.from, newFingerprint: e.to, readded: e.readded }
        : { tool: e.tool, fingerprint: e.fingerprint };
    this.deps.audit?.append({ kind: 'tool-change', serverId, action: e.kind, details });
  }

  private save(): void {
    this.deps.pins.save().catch((error: unknown) => {
      this.deps.onError?.(`tool pins could not be saved: ${(error as Error).message}`);
    });
  }

  private stamp(): string {
    return this.now().toISOString();
  }
}
