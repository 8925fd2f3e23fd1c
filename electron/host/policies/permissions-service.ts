import type { FlowOverride } from '../../../shared/domain/flows.js';
import type {
  FlowLabelsPermission,
  PermissionRef,
  PermissionsSnapshot,
  ServerPermissions,
  ServerTrust,
} from '../../../shared/domain/permissions.js';
import type { ServerConfig } from '../../../shared/domain/server-config.js';
import type { ServerSummary } from '../../../shared/domain/server-state.js';
import type { AuditLog } from '../audit/audit-log.js';
import { launchKey } from '../config/launch-key.js';
import type { HostEvents } from '../host-events.js';
import { HostFailure } from '../util/errors.js';
import type { PolicyStore } from './policy-store.js';
import type { ToolPolicy } from './tool-policy.js';

/** What the service needs of the server registry: the ids, each config, and a config edit. */
export interface PermissionServers {
  list(): ServerSummary[];
  serverConfig(id: string): ServerConfig | undefined;
  update(id: string, config: ServerConfig): Promise<unknown>;
}

/** Everything the Permissions view reads and changes. */
export interface PermissionsDeps {
  store: PolicyStore;
  /** Its "for this chat" choices are dropped with a server's other permissions. */
  policy: ToolPolicy;
  servers: PermissionServers;
  events: HostEvents;
  audit: AuditLog;
  /** The tool pins: trusting a server accepts its tools as they read now; removing one forgets them. */
  pins?: { acceptAll(serverId: string): Promise<void>; forget(serverId: string): Promise<void> };
}

/**
 * Standing permissions as a person sees them: one entry per server with its trust, its
 * "always allowed" tools and its sampling decision, and the ways to take each back. The
 * records themselves stay in the PolicyStore, which the tool policy and sampling read on every
 * call, so a revoke holds from the very next call. Every change, whoever made it (an approval
 * card, the sampling review, this view, a removed server), is sent as `permissions.changed`.
 */
export class PermissionsService {
  private last = '';
  private readonly offs: (() => void)[] = [];

  constructor(private readonly deps: PermissionsDeps) {
    this.offs.push(deps.store.onChange(() => this.publish()));
    // A changed command makes records stale, an added server gets a Trust switch: re-send when the list differs.
    this.offs.push(deps.events.on('servers.changed', () => this.publish()));
    this.last = JSON.stringify(this.list());
  }

  /** Every configured server, then every other server that still has a record. */
  list(): PermissionsSnapshot {
    const { trust, sampling } = this.deps.store;
    const records = trust.snapshot();
    const grants = new Map(sampling.grants().map((g) => [g.serverId, g]));
    const appGrants = new Map(this.deps.store.apps.grants().map((g) => [g.serverId, g]));
    const flows = flowsByServer(this.deps.store.flows.list());
    const configured = this.deps.servers.list().map((s) => s.id);
    const others = new Set<string>();
    for (const e of [...records.alwaysAllowed, ...records.trustedServers]) others.add(e.serverId);
    for (const id of [...grants.keys(), ...appGrants.keys(), ...flows.keys()]) others.add(id);
    for (const id of configured) others.delete(id);
    const ids = [...configured, ...[...others].sort()];
    return ids.map((serverId): ServerPermissions => {
      const config = this.deps.servers.serverConfig(serverId);
      const key = config ? launchKey(config) : undefined;
      const g = grants.get(serverId);
      const a = appGrants.get(serverId);
      return {
        serverId,
        configured: configured.includes(serverId),
        trust: trustOf(
          config,
          key,
          records.trustedServers.find((e) => e.serverId === serverId),
        ),
        tools: records.alwaysAllowed
          .filter((e) => e.serverId === serverId)
          .map((e) => ({
            tool: e.tool,
            applies: e.launchKey === key,
            ...(e.grantedAt !== undefined ? { grantedAt: e.grantedAt } : {}),
            ...(e.conversationId !== undefined ? { conversationId: e.conversationId } : {}),
          })),
        ...(g
          ? {
              sampling: {
                consent: g.consent,
                skipReplyReview: g.skipReplyReview,
                ...(g.grantedAt !== undefined ? { grantedAt: g.grantedAt } : {}),
              },
            }
          : {}),
        ...(a
          ? {
              apps: {
                permissions: a.permissions,
                viewsEnabled: a.viewsEnabled,
                ...(a.grantedAt !== undefined ? { grantedAt: a.grantedAt } : {}),
              },
            }
          : {}),
        ...(flows.has(serverId) ? { flows: flows.get(serverId) } : {}),
      };
    });
  }

  /** Take back one permission; the next call that needed it asks again. */
  async revoke(ref: PermissionRef): Promise<PermissionsSnapshot> {
    const { trust, sampling } = this.deps.store;
    if (ref.kind === 'tool') await trust.disallowTool(ref.serverId, ref.tool);
    else if (ref.kind === 'sampling') await sampling.forget(ref.serverId);
    else if (ref.kind === 'app-permissions') await this.deps.store.apps.setPermissions(ref.serverId, []);
    else if (ref.kind === 'flow-labels') await this.deps.store.flows.set(ref.serverId, ref.tool, null);
    else await this.untrust(ref.serverId);
    this.record(
      ref.serverId,
      'revoked',
      ref.kind === 'tool' || (ref.kind === 'flow-labels' && ref.tool !== undefined)
        ? { what: ref.kind, tool: ref.tool }
        : { what: ref.kind },
    );
    return this.list();
  }

  /** Take back everything about one server: trust, every tool, sampling, "for this chat" choices. */
  async revokeServer(serverId: string): Promise<PermissionsSnapshot> {
    await this.untrust(serverId);
    // "Show interactive views" is a preference, not a permission: Revoke all keeps it.
    const viewsEnabled = this.deps.store.apps.viewsEnabled(serverId);
    await this.deps.store.forgetServer(serverId);
    if (!viewsEnabled) await this.deps.store.apps.setViewsEnabled(serverId, false);
    this.deps.policy.forgetServer(serverId);
    this.record(serverId, 'revoked', { what: 'all' });
    return this.list();
  }

  /** Turn a server's trust on (every tool runs without asking, for its current command) or off. */
  async setTrust(serverId: string, trusted: boolean): Promise<PermissionsSnapshot> {
    const config = this.configOf(serverId);
    if (trusted) {
      await this.deps.store.trust.trustServer(serverId, launchKey(config));
      await this.deps.pins?.acceptAll(serverId);
    } else await this.untrust(serverId);
    this.record(serverId, trusted ? 'trusted' : 'untrusted', {});
    return this.list();
  }

  /** The server was removed from the config: nothing about it may outlive it (a new server of that name starts clean). */
  async forgetServer(serverId: string): Promise<void> {
    await this.deps.store.forgetServer(serverId);
    await this.deps.pins?.forget(serverId);
    this.deps.policy.forgetServer(serverId);
  }

  dispose(): void {
    for (const off of this.offs.splice(0)) off();
  }

  private async untrust(serverId: string): Promise<void> {
    await this.deps.store.trust.untrustServer(serverId);
    const config = this.deps.servers.serverConfig(serverId);
    // Trust written into the config entry itself is taken back there (this restarts the server).
    if (config?.trust === 'trusted') {
      const { trust: _dropped, ...rest } = config;
      await this.deps.servers.update(serverId, rest);
    }
  }

  private configOf(serverId: string): ServerConfig {
    if (!this.deps.servers.list().some((s) => s.id === serverId))
      throw new HostFailure('unknown_server', `no server is named "${serverId}"`);
    const config = this.deps.servers.serverConfig(serverId);
    if (!config)
      throw new HostFailure(
        'config_invalid',
        `"${serverId}" has a config entry that does not parse; fix it first`,
      );
    return config;
  }

  private record(serverId: string, action: string, details: Record<string, unknown>): void {
    this.deps.audit.append({ kind: 'approval', serverId, action, details });
  }

  private publish(): void {
    const list = this.list();
    const text = JSON.stringify(list);
    if (text === this.last) return;
    this.last = text;
    this.deps.events.emit('permissions.changed', list);
  }
}

/** Overrides grouped per server, as the Permissions list shows them. */
function flowsByServer(list: readonly FlowOverride[]): Map<string, FlowLabelsPermission> {
  const out = new Map<string, FlowLabelsPermission>();
  for (const o of list) {
    const entry = out.get(o.serverId) ?? { tools: [] };
    const at = o.setAt !== undefined ? { setAt: o.setAt } : {};
    if (o.tool === undefined) entry.server = { labels: o.labels, ...at };
    else entry.tools.push({ tool: o.tool, labels: o.labels, ...at });
    out.set(o.serverId, entry);
  }
  return out;
}

function trustOf(
  config: ServerConfig | undefined,
  key: string | undefined,
  record: { launchKey: string; grantedAt?: string } | undefined,
): ServerTrust {
  if (config?.trust === 'trusted') return { trusted: true, source: 'config' };
  if (!record) return { trusted: false };
  const at = record.grantedAt !== undefined ? { grantedAt: record.grantedAt } : {};
  if (record.launchKey === key) return { trusted: true, source: 'granted', ...at };
  return { trusted: false, source: 'granted', stale: true, ...at };
}
