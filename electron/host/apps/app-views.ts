import { randomBytes } from 'node:crypto';
import type { CatalogSnapshot } from '../../../shared/domain/catalog.js';
import {
  externalOrigins,
  toolUiOf,
  type AppCspDomains,
  type AppPermission,
  type AppViewHandle,
} from '../../../shared/domain/mcp-apps.js';
import type { ServerState } from '../../../shared/domain/server-state.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { HostEvents } from '../host-events.js';
import type { Disposable } from '../util/disposable.js';
import { HostFailure } from '../util/errors.js';
import { buildCsp, readViewMeta } from './app-csp.js';
import { ViewResources, type ReadResource } from './view-resources.js';

/**
 * Where the sandbox proxy lives: an origin of its own for each view, never the app's (browser
 * mode: `http://<viewId>.localhost:<port>`; the desktop app: `mcp-desk-sandbox://<viewId>`).
 */
export interface SandboxEndpoint {
  /** The origin of one view's sandbox. */
  originFor(viewId: string): string;
  /** The proxy page for one view; its response carries that view's CSP as a header. */
  pageUrl(viewId: string): string;
  /** Whether WebRTC is blocked for views here (the desktop app) or only disclosed (browser mode). */
  webRtcBlocked: boolean;
  /** Ready the sandbox for a view before its handle goes out (the desktop app's network rules). */
  opened?(view: OpenView): Promise<void>;
  /** The view is gone: drop what the sandbox kept for it (its storage, its network rules). */
  closed?(viewId: string): void;
}

/** One open view, as the host remembers it. */
export interface OpenView {
  viewId: string;
  serverId: string;
  toolName: string;
  resourceUri: string;
  /** The origins the view declared (its CSP is built from these; the desktop filter checks them). */
  csp: AppCspDomains;
  cspApplied: string;
  granted: AppPermission[];
  /** The conversation and tool call it belongs to, when it is shown in chat. */
  conversationId?: string;
  toolCallId?: string;
  openedAt: number;
}

/** Audit something an open view did, under its server, naming its tool and conversation. */
export function auditView(
  audit: AuditLog,
  view: OpenView,
  action: string,
  details: Record<string, unknown>,
): void {
  audit.append({
    kind: 'app',
    serverId: view.serverId,
    action,
    details: {
      tool: view.toolName,
      ...(view.conversationId ? { conversationId: view.conversationId } : {}),
      ...details,
    },
  });
}

/** What the AppViews service reads from the rest of the host. */
export interface AppViewsDeps {
  catalog: () => CatalogSnapshot;
  serverState: (serverId: string) => ServerState | undefined;
  read: ReadResource;
  events: HostEvents;
  audit: AuditLog;
  /** The person's "show interactive views" switch for a server (default on). */
  viewsEnabled?: (serverId: string) => boolean;
  /** Device permissions the person granted a server's views. */
  grantedPermissions?: (serverId: string) => AppPermission[];
  now?: () => number;
}

/** At most this many views are open at once; the oldest is closed past it. */
export const MAX_OPEN_VIEWS = 64;

/**
 * Opens MCP App views: finds the tool's `ui://` resource, reads it (cached per server
 * connection and resource list), builds the CSP it will run under, and registers the view
 * under an unguessable id that every later request from the view must name. The sandbox
 * server asks `policyFor(viewId)` for the header of the proxy page.
 */
export class AppViews implements Disposable {
  private readonly views = new Map<string, OpenView>();
  private readonly closedListeners = new Set<(viewId: string) => void>();
  private readonly resources: ViewResources;
  /** Per server, the resource list the cache was filled under. */
  private readonly listSignature = new Map<string, string>();
  private readonly listGeneration = new Map<string, number>();
  private readonly unsubscribe: () => void;
  private readonly now: () => number;
  /** The sandbox this entry serves (see attachSandbox); absent where views cannot be shown (the CLI). */
  private sandbox: SandboxEndpoint | undefined;

  constructor(private readonly deps: AppViewsDeps) {
    this.resources = new ViewResources(deps.read);
    this.now = deps.now ?? Date.now;
    this.unsubscribe = deps.events.on('catalog.changed', (snapshot) => this.noteCatalog(snapshot));
  }

  /** Open the view of `toolName` on `serverId`; the result holds everything the frame needs. */
  async open(req: {
    serverId: string;
    toolName: string;
    conversationId?: string;
    toolCallId?: string;
  }): Promise<AppViewHandle> {
    const { serverId, toolName } = req;
    const tool = this.deps.catalog().tools.find((t) => t.serverId === serverId && t.tool.name === toolName);
    if (!tool) throw new HostFailure('unknown_tool', `"${serverId}" has no tool "${toolName}".`);
    const { resourceUri } = toolUiOf(tool.tool);
    if (!resourceUri)
      throw new HostFailure('no_view', `"${toolName}" on "${serverId}" has no interactive view.`);
    if (this.deps.viewsEnabled && !this.deps.viewsEnabled(serverId))
      throw new HostFailure('no_view', `Interactive views are switched off for "${serverId}".`, {
        hint: 'Turn on "Show interactive views" in Servers › Info to see them.',
      });
    const sandbox = this.sandbox;
    if (!sandbox)
      throw new HostFailure(
        'unavailable',
        'Interactive views can be shown only in the app or in browser mode.',
      );
    const doc = await this.resources.get(serverId, resourceUri, this.generation(serverId));
    const meta = readViewMeta(doc.content);
    const cspApplied = buildCsp(meta.csp);
    const granted = (this.deps.grantedPermissions?.(serverId) ?? []).filter((p) =>
      meta.permissions.includes(p),
    );
    const viewId = randomBytes(16).toString('hex');
    const view: OpenView = {
      viewId,
      serverId,
      toolName,
      resourceUri,
      csp: meta.csp,
      cspApplied,
      granted,
      ...(req.conversationId ? { conversationId: req.conversationId } : {}),
      ...(req.toolCallId ? { toolCallId: req.toolCallId } : {}),
      openedAt: this.now(),
    };
    this.views.set(viewId, view);
    try {
      await sandbox.opened?.(view);
    } catch (error) {
      this.close(viewId);
      throw new HostFailure(
        'unavailable',
        `The view's sandbox could not be prepared: ${(error as Error).message}`,
      );
    }
    this.evictPastCap();
    this.deps.audit.append({
      kind: 'app',
      serverId,
      action: 'view-opened',
      details: {
        tool: toolName,
        resourceUri,
        csp: cspApplied,
        externalOrigins: externalOrigins(meta.csp),
        ...(meta.droppedDomains.length ? { refusedDomains: meta.droppedDomains } : {}),
        permissionsRequested: meta.permissions,
        permissionsGranted: granted,
        ...(req.conversationId ? { conversationId: req.conversationId } : {}),
      },
    });
    return {
      viewId,
      serverId,
      toolName,
      resourceUri,
      html: doc.html,
      sandboxUrl: sandbox.pageUrl(viewId),
      sandboxOrigin: sandbox.originFor(viewId),
      webRtcBlocked: sandbox.webRtcBlocked,
      csp: meta.csp,
      cspApplied,
      permissions: { requested: meta.permissions, granted },
      ...(meta.prefersBorder !== undefined ? { prefersBorder: meta.prefersBorder } : {}),
    };
  }

  /**
   * Bind the sandbox this entry serves (browser mode's loopback listener, the desktop app's
   * scheme); it asks policyFor() for each page's header, and hears of every view that closes.
   */
  attachSandbox(endpoint: SandboxEndpoint): void {
    this.sandbox = endpoint;
  }

  /** The view behind an id, or a view_closed failure (every request from a view goes through here). */
  view(viewId: string): OpenView {
    const v = this.views.get(viewId);
    if (!v) throw new HostFailure('view_closed', 'That view is closed; open the tool result again.');
    return v;
  }

  /** The open view behind an id, or undefined (no failure: for lookups by origin). */
  find(viewId: string): OpenView | undefined {
    return this.views.get(viewId);
  }

  /** The CSP header for the proxy page of an open view; undefined for an unknown id. */
  policyFor(viewId: string): string | undefined {
    return this.views.get(viewId)?.cspApplied;
  }

  /** Close a view; later requests naming it fail with view_closed. */
  close(viewId: string): boolean {
    const closed = this.views.delete(viewId);
    if (closed) this.announceClosed(viewId);
    return closed;
  }

  /** Be told of every view that closes, by request or evicted past the cap (its waits must end). */
  onClosed(listener: (viewId: string) => void): () => void {
    this.closedListeners.add(listener);
    return () => this.closedListeners.delete(listener);
  }

  /** Every open view (diagnostics and tests). */
  list(): OpenView[] {
    return [...this.views.values()];
  }

  dispose(): void {
    this.unsubscribe();
    this.views.clear();
  }

  /** A server's cache generation: its connection and the version of its resource list. */
  private generation(serverId: string): string {
    const state = this.deps.serverState(serverId);
    const since = state?.kind === 'connected' ? state.since : 0;
    return `${since}:${this.listGeneration.get(serverId) ?? 0}`;
  }

  private noteCatalog(snapshot: CatalogSnapshot): void {
    const byServer = new Map<string, string[]>();
    for (const r of snapshot.resources)
      byServer.set(r.serverId, [...(byServer.get(r.serverId) ?? []), r.resource.uri]);
    for (const t of snapshot.tools) {
      const uri = toolUiOf(t.tool).resourceUri;
      if (uri) byServer.set(t.serverId, [...(byServer.get(t.serverId) ?? []), `tool:${t.tool.name}:${uri}`]);
    }
    const seen = new Set([...byServer.keys(), ...this.listSignature.keys()]);
    for (const serverId of seen) {
      const signature = (byServer.get(serverId) ?? []).sort().join('\n');
      if (this.listSignature.get(serverId) === signature) continue;
      this.listSignature.set(serverId, signature);
      this.listGeneration.set(serverId, (this.listGeneration.get(serverId) ?? 0) + 1);
      this.resources.drop(serverId);
    }
  }

  private evictPastCap(): void {
    while (this.views.size > MAX_OPEN_VIEWS) this.close(this.views.keys().next().value as string);
  }

  private announceClosed(viewId: string): void {
    for (const l of [...this.closedListeners, (id: string) => this.sandbox?.closed?.(id)])
      try {
        l(viewId);
      } catch {
        // A listener's failure is its own.
      }
  }
}
