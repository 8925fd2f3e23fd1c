import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { AppPermission } from '../../../shared/domain/mcp-apps.js';
import { SerialWriter } from '../util/atomic-write.js';

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
const fileSchema = z
  .object({ version: z.literal(1), servers: z.record(z.string().min(1).max(300), z.unknown()) })
  .passthrough();

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
  private readonly listeners = new Set<() => void>();

  private constructor(
    private readonly servers: Map<string, Entry>,
    private readonly writer: SerialWriter | undefined,
    private readonly extra: Record<string, unknown>,
  ) {}

  /** Load `path`; a missing or unreadable file means defaults everywhere. */
  static async open(
    path: string,
    warn: (message: string) => void = (m) => console.warn(m),
  ): Promise<AppGrantsStore> {
    const servers = new Map<string, Entry>();
    let extra: Record<string, unknown> = {};
    try {
      const parsed = fileSchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
      if (!parsed.success) warn(`app view settings ${path} are not in the expected shape; using defaults`);
      else {
        const { version: _v, servers: raw, ...rest } = parsed.data;
        extra = rest;
        for (const [id, value] of Object.entries(raw)) {
          const entry = entrySchema.safeParse(value);
          if (entry.success) servers.set(id, entry.data);
        }
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT')
        warn(
          `app view settings ${path} could not be read (${code ?? (error as Error).message}); using defaults`,
        );
    }
    return new AppGrantsStore(servers, new SerialWriter(path), extra);
  }

  /** Decisions that live only in memory (CLI one-shots, tests). */
  static inMemory(): AppGrantsStore {
    return new AppGrantsStore(new Map(), undefined, {});
  }

  /** Called after every change (before it is written). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
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
    this.notify();
    await this.persist();
  }

  flush(): Promise<void> {
    return this.writer?.flush() ?? Promise.resolve();
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
    this.notify();
    await this.persist();
  }

  private notify(): void {
    for (const l of [...this.listeners])
      try {
        l();
      } catch {
        // A listener's failure is its own.
      }
  }

  private persist(): Promise<void> {
    const servers = Object.fromEntries(this.servers);
    return (
      this.writer?.write(`${JSON.stringify({ ...this.extra, version: 1, servers }, null, 2)}\n`) ??
      Promise.resolve()
    );
  }
}
