import type { CatalogSnapshot, CatalogTool } from '../../../shared/domain/catalog.js';
import type { HostEvents } from '../host-events.js';
import type { Disposable } from '../util/disposable.js';
import type { ServerLists } from './server-catalog.js';

/** Decides whether chat may offer a tool (per-server and per-tool switches live in settings). */
export type ToolEnabledPredicate = (serverId: string, tool: string) => boolean;

/**
 * The trust facts of every tool (pins, warnings), computed over the whole list at once
 * because shadowing compares servers; see electron/host/tool-trust/.
 */
export type ToolTrustAnnotator = (tools: readonly CatalogTool[]) => void;

/** Where the catalog reads from: the lists of every server that is connected right now. */
export interface CatalogSource {
  connectedLists(): Iterable<[serverId: string, lists: ServerLists]>;
}

/** How long a burst of list changes (connect, list_changed, reconnect) is coalesced. */
const COALESCE_MS = 15;

/**
 * The combined catalog of every connected server: aggregation, the enabled-tool predicate and
 * the coalesced `catalog.changed` event. Each server's own lists (paged, filtered by its
 * include/exclude globs) come from server-catalog.ts through the connections.
 */
export class Catalog implements Disposable {
  private toolEnabled: ToolEnabledPredicate = () => true;
  private annotateTrust: ToolTrustAnnotator = () => undefined;
  private timer?: NodeJS.Timeout;

  /** `onChange` hears of every change first: server summaries carry the list counts. */
  constructor(
    private readonly source: CatalogSource,
    private readonly events: HostEvents,
    private readonly onChange: () => void,
  ) {}

  /** Replace the enabled-tool predicate; the UI hears of it like any other change. */
  setToolEnabledPredicate(fn: ToolEnabledPredicate): void {
    this.toolEnabled = fn;
    this.changedSoon();
  }

  /** Set who fills in each tool's `trust` (the host's ToolTrust service); the UI hears of it. */
  setToolTrustAnnotator(fn: ToolTrustAnnotator): void {
    this.annotateTrust = fn;
    this.changedSoon();
  }

  snapshot(): CatalogSnapshot {
    const snap: CatalogSnapshot = { tools: [], resources: [], templates: [], prompts: [] };
    for (const [serverId, lists] of this.source.connectedLists()) {
      for (const tool of lists.tools)
        snap.tools.push({ serverId, tool, enabled: this.toolEnabled(serverId, tool.name) });
      for (const resource of lists.resources) snap.resources.push({ serverId, resource });
      for (const template of lists.templates) snap.templates.push({ serverId, template });
      for (const prompt of lists.prompts) snap.prompts.push({ serverId, prompt });
    }
    this.annotateTrust(snap.tools);
    return snap;
  }

  /** Announce the catalog now (a server was removed: no reason to wait). */
  changed(): void {
    this.events.emit('catalog.changed', this.snapshot());
  }

  /** Lists change in bursts (connect, list_changed, reconnect): coalesce them into one event. */
  changedSoon(): void {
    this.onChange();
    if (!this.events.hasListeners('catalog.changed')) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.changed(), COALESCE_MS);
  }

  dispose(): void {
    clearTimeout(this.timer);
  }
}
