import { z } from 'zod';
import { describeIssues, HostFailure } from '../util/errors.js';

const trustId = z.string().min(1).max(300);
/** When a decision was made (ISO 8601); records written before it was kept have none. */
const grantedAt = z.string().max(40).optional();
const allowedToolSchema = z
  .object({
    serverId: trustId,
    launchKey: trustId,
    tool: trustId,
    grantedAt,
    /** The conversation whose approval card said "always", when it came from one. */
    conversationId: z.string().max(64).optional(),
  })
  .strict();
const trustedServerSchema = z.object({ serverId: trustId, launchKey: trustId, grantedAt }).strict();

/** A tool a person chose to "always allow", valid only for the launch config it was allowed with. */
export type AllowedTool = z.infer<typeof allowedToolSchema>;
/** A server a person trusted, valid only for the launch config it was trusted with. */
export type TrustedServer = z.infer<typeof trustedServerSchema>;

/** Standing trust decisions. `launchKey` is the policy's hash of a server's launch config. */
export interface TrustSettings {
  alwaysAllowed: AllowedTool[];
  trustedServers: TrustedServer[];
}

/** Where the records are kept: they are written with whatever file holds them (settings.json today). */
export interface TrustPersistence {
  /** Queue a write of the current records; resolves once it has landed. */
  save(): Promise<void>;
  /** Resolves once every queued write has finished. */
  flush(): Promise<void>;
}

/** No trust at all: what a fresh install starts with. */
export function emptyTrust(): TrustSettings {
  return { alwaysAllowed: [], trustedServers: [] };
}

/**
 * Trusted servers and "always allowed" tools, each tied to the launch key it was granted for,
 * so a changed command or URL is asked about again. The rules live here and only here; the
 * records are persisted by their holder (the `trust` section of settings.json, next to the chat
 * settings, which is the format every earlier version wrote).
 */
export class TrustRecords {
  private records: TrustSettings;
  private readonly listeners = new Set<() => void>();

  constructor(
    initial: TrustSettings,
    private readonly persistence: TrustPersistence,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.records = copyTrust(initial);
  }

  /** Called after every change of the records (before it is written), so views update at once. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The standing trust decisions (a copy). */
  snapshot(): TrustSettings {
    return copyTrust(this.records);
  }

  isAlwaysAllowed(serverId: string, launchKey: string, tool: string): boolean {
    return this.records.alwaysAllowed.some(
      (e) => e.serverId === serverId && e.launchKey === launchKey && e.tool === tool,
    );
  }

  /** Remember "always allow" for a tool of a server as launched with `launchKey` (from a conversation's card, if named). */
  async allowAlways(
    serverId: string,
    launchKey: string,
    tool: string,
    conversationId?: string,
  ): Promise<void> {
    const entry = checkTrust(allowedToolSchema, {
      serverId,
      launchKey,
      tool,
      grantedAt: this.now().toISOString(),
      ...(conversationId !== undefined ? { conversationId } : {}),
    });
    if (this.isAlwaysAllowed(serverId, launchKey, tool)) return;
    // An entry for an older launch config can never match again; replacing it keeps the file small.
    const rest = this.records.alwaysAllowed.filter((e) => !(e.serverId === serverId && e.tool === tool));
    this.records.alwaysAllowed = [...rest, entry];
    await this.changed();
  }

  /** Forget "always allow" for one tool (any launch config). */
  async disallowTool(serverId: string, tool: string): Promise<void> {
    const before = this.records.alwaysAllowed.length;
    this.records.alwaysAllowed = this.records.alwaysAllowed.filter(
      (e) => !(e.serverId === serverId && e.tool === tool),
    );
    if (this.records.alwaysAllowed.length !== before) await this.changed();
  }

  isTrustedServer(serverId: string, launchKey: string): boolean {
    return this.records.trustedServers.some((e) => e.serverId === serverId && e.launchKey === launchKey);
  }

  /** Trust every tool of a server as launched with `launchKey`. */
  async trustServer(serverId: string, launchKey: string): Promise<void> {
    const entry = checkTrust(trustedServerSchema, {
      serverId,
      launchKey,
      grantedAt: this.now().toISOString(),
    });
    if (this.isTrustedServer(serverId, launchKey)) return;
    const rest = this.records.trustedServers.filter((e) => e.serverId !== serverId);
    this.records.trustedServers = [...rest, entry];
    await this.changed();
  }

  /** Stop trusting a server (whatever launch config it was trusted with). */
  async untrustServer(serverId: string): Promise<void> {
    const before = this.records.trustedServers.length;
    this.records.trustedServers = this.records.trustedServers.filter((e) => e.serverId !== serverId);
    if (this.records.trustedServers.length !== before) await this.changed();
  }

  /** Drop every trust decision about a server (it was removed from the config). */
  async forgetServer(serverId: string): Promise<void> {
    const t = this.records;
    const before = t.trustedServers.length + t.alwaysAllowed.length;
    t.trustedServers = t.trustedServers.filter((e) => e.serverId !== serverId);
    t.alwaysAllowed = t.alwaysAllowed.filter((e) => e.serverId !== serverId);
    if (t.trustedServers.length + t.alwaysAllowed.length !== before) await this.changed();
  }

  /** Resolves once every queued write has finished. */
  flush(): Promise<void> {
    return this.persistence.flush();
  }

  private changed(): Promise<void> {
    for (const l of [...this.listeners])
      try {
        l();
      } catch {
        // A listener's failure is its own; the write below must still happen.
      }
    return this.persistence.save();
  }
}

/**
 * Read a stored `trust` section, keeping every valid entry; `problems` gets one line per
 * dropped entry or list, named by where it sat (`trust.alwaysAllowed[2]`).
 */
export function parseTrust(value: Record<string, unknown>, problems: string[]): TrustSettings {
  return {
    alwaysAllowed: parseList(value.alwaysAllowed, allowedToolSchema, 'trust.alwaysAllowed', problems),
    trustedServers: parseList(value.trustedServers, trustedServerSchema, 'trust.trustedServers', problems),
  };
}

function copyTrust(t: TrustSettings): TrustSettings {
  return {
    alwaysAllowed: t.alwaysAllowed.map((e) => ({ ...e })),
    trustedServers: t.trustedServers.map((e) => ({ ...e })),
  };
}

function checkTrust<T>(schema: z.ZodType<T>, value: T): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new HostFailure('invalid_trust', `invalid trust entry: ${describeIssues(parsed.error.issues)}`);
  return parsed.data;
}

function parseList<T>(value: unknown, schema: z.ZodType<T>, where: string, problems: string[]): T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.push(`${where} is not a list`);
    return [];
  }
  const out: T[] = [];
  value.forEach((item, i) => {
    const parsed = schema.safeParse(item);
    if (parsed.success) out.push(parsed.data);
    else problems.push(`${where}[${i}]: ${describeIssues(parsed.error.issues)}`);
  });
  return out;
}
