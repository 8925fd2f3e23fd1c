import { z } from 'zod';
import type { AppPermission } from '../../../shared/domain/mcp-apps.js';
import { ServerEntriesFile } from './server-entries-file.js';

/** Every device permission a view may ask for, in the order the Permissions view lists them. */
export const APP_PERMISSIONS: readonly AppPermission[] = [
  'camera',
  'microphone',
  'geolocation',
  'clipboardWrite',
];

const entrySchema = z
  .object({
    permissions: z.array(z.string()).max(10).optional(),
    viewsEnabled: z.boolean().optional(),
    grantedAt: z.string().max(40).optional(),
  })
  .strip();
type Entry = z.infer<typeof entrySchema>;

/** One server's MCP Apps decisions (the Permissions list). */
export interface AppGrant {
  serverId: string;
  permissions: AppPermission[];
  viewsEnabled: boolean;
  grantedAt?: string;
}

/**
 * What a person decided about a server's interactive views: the device permissions granted
 * to them (camera, microphone, geolocation, clipboard-write) and the "show interactive views"
 * switch (on unless turned off). Persisted in `<dataDir>/apps.json`, a file of its own like
 * sampling consent; an unreadable file or an unknown permission name loses only itself, and
 * reads as "nothing granted", the safe side.
 */
export class AppGrantsStore {
  private readonly servers: Map<string, Entry>;

  private constructor(private readonly file: ServerEntriesFile<Entry>) {
    this.servers = file.entries;
  }

  /** Load `path`; a missing or unreadable file means defaults everywhere. */
  static async open(
    path: string,
    warn: (message: string) => void = (m) => console.warn(m),
  ): Promise<AppGrantsStore> {
    const labels = { what: 'app view settings', fallback: 'using defaults' };
    return new AppGrantsStore(await ServerEntriesFile.open(path, entrySchema, labels, warn));
  }

  /** Decisions that live only in memory (CLI one-shots, tests). */
  static inMemory(): AppGrantsStore {
    return new AppGrantsStore(ServerEntriesFile.inMemory());
  }

  /** Called after every change (before it is written). */
  onChange(listener: () => void): () => void {
    return this.file.onChange(listener);
  }

  /** The permissions granted to a server's views (only known names). */
  permissions(serverId: string): AppPermission[] {
    const stored = this.servers.get(serverId)?.permissions ?? [];
    return APP_PERMISSIONS.filter((p) => stored.includes(p));
  }

  /** The "show interactive views" switch: on unless a person turned it off. */
  viewsEnabled(serverId: string): boolean {
    return this.servers.get(serverId)?.viewsEnabled !== false;
  }

  /** Every server with a decision other than the defaults. */
  grants(): AppGrant[] {
    const out: AppGrant[] = [];
    for (const [serverId, e] of this.servers) {
      const permissions = this.permissions(serverId);
      const viewsEnabled = this.viewsEnabled(serverId);
      if (!permissions.length && viewsEnabled) continue;
      out.push({
        serverId,
        permissions,
        viewsEnabled,
        ...(e.grantedAt !== undefined ? { grantedAt: e.grantedAt } : {}),
      });
    }
    return out;
  }

  /** Replace the permissions granted to a server's views (an empty list takes them all back). */
  async setPermissions(serverId: string, permissions: readonly AppPermission[]): Promise<AppPermission[]> {
    const next = APP_PERMISSIONS.filter((p) => permissions.includes(p));
    await this.update(serverId, {
      permissions: next,
      ...(next.length ? { grantedAt: new Date().toISOString() } : { grantedAt: undefined }),
    });
    return next;
  }

  async setViewsEnabled(serverId: string, enabled: boolean): Promise<void> {
    await this.update(serverId, { viewsEnabled: enabled });
  }

  /** Forget a removed server (or everything about one, revoked): defaults again. */
  async forget(serverId: string): Promise<void> {
    if (!this.servers.delete(serverId)) return;
    await this.file.changed();
  }

  flush(): Promise<void> {
    return this.file.flush();
  }

  private async update(serverId: string, patch: Entry): Promise<void> {
    const merged: Entry = { ...this.servers.get(serverId), ...patch };
    // Defaults are not stored: a server with nothing decided has no entry at all.
    const clean: Entry = {
      ...(merged.permissions?.length ? { permissions: merged.permissions } : {}),
      ...(merged.viewsEnabled === false ? { viewsEnabled: false } : {}),
      ...(merged.grantedAt !== undefined && merged.permissions?.length
        ? { grantedAt: merged.grantedAt }
        : {}),
    };
    if (Object.keys(clean).length) this.servers.set(serverId, clean);
    else this.servers.delete(serverId);
    await this.file.changed();
  }
}
