import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { SamplingConsent } from '../../../shared/domain/pending.js';
import { SerialWriter } from '../util/atomic-write.js';

const entrySchema = z
  .object({
    consent: z.enum(['ask', 'always', 'never']).optional(),
    skipReplyReview: z.boolean().optional(),
    grantedAt: z.string().max(40).optional(),
  })
  .strip();
type Entry = z.infer<typeof entrySchema>;
const fileSchema = z
  .object({ version: z.literal(1), servers: z.record(z.string().min(1).max(300), z.unknown()) })
  .passthrough();

/** One server's standing sampling decisions. */
export interface SamplingServerSettings {
  consent: SamplingConsent;
  skipReplyReview: boolean;
}

/** A server's sampling decisions with when they were last changed (the Permissions list). */
export interface SamplingGrant extends SamplingServerSettings {
  serverId: string;
  grantedAt?: string;
}

/**
 * Standing sampling decisions per server. `always`/`never` and "skip reply review" persist
 * (in `<dataDir>/sampling.json`, a file of its own so the settings file other features share
 * keeps its format); `session` lives only in memory, by definition. An unreadable or partly
 * invalid file loses nothing valid: bad entries fall back to `ask`, which is the safe side.
 */
export class SamplingConsentStore {
  /** Servers allowed for this session, with when. */
  private readonly session = new Map<string, string>();
  private readonly listeners = new Set<() => void>();

  private constructor(
    private readonly servers: Map<string, Entry>,
    private readonly writer: SerialWriter | undefined,
    private readonly extra: Record<string, unknown>,
  ) {}

  /** Called after every change (before it is written), so views update at once. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Every server with a decision other than plain "ask" (the Permissions list). */
  grants(): SamplingGrant[] {
    const ids = new Set([...this.servers.keys(), ...this.session.keys()]);
    const out: SamplingGrant[] = [];
    for (const serverId of ids) {
      const settings = this.get(serverId);
      if (settings.consent === 'ask' && !settings.skipReplyReview) continue;
      const at =
        settings.consent === 'session' ? this.session.get(serverId) : this.servers.get(serverId)?.grantedAt;
      out.push({ serverId, ...settings, ...(at !== undefined ? { grantedAt: at } : {}) });
    }
    return out;
  }

  /** Load `path`; a missing or unreadable file means "ask" everywhere. */
  static async open(
    path: string,
    warn: (message: string) => void = (m) => console.warn(m),
  ): Promise<SamplingConsentStore> {
    const servers = new Map<string, Entry>();
    let extra: Record<string, unknown> = {};
    try {
      const parsed = fileSchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
      if (!parsed.success)
        warn(`sampling settings ${path} are not in the expected shape; every server will ask again`);
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
          `sampling settings ${path} could not be read (${code ?? (error as Error).message}); every server will ask again`,
        );
    }
    return new SamplingConsentStore(servers, new SerialWriter(path), extra);
  }

  /** Decisions that live only in memory (CLI one-shots, tests). */
  static inMemory(): SamplingConsentStore {
    return new SamplingConsentStore(new Map(), undefined, {});
  }

  get(serverId: string): SamplingServerSettings {
    const e = this.servers.get(serverId);
    const stored = e?.consent ?? 'ask';
    const consent: SamplingConsent = stored === 'ask' && this.session.has(serverId) ? 'session' : stored;
    return { consent, skipReplyReview: e?.skipReplyReview === true };
  }

  /** Set a server's consent; `session` is kept in memory only. */
  async setConsent(serverId: string, consent: SamplingConsent): Promise<void> {
    const grantedAt = new Date().toISOString();
    if (consent === 'session') {
      this.session.set(serverId, grantedAt);
      // A standing decision would outrank the session one; the newer choice wins.
      const stored = this.servers.get(serverId)?.consent;
      if (stored === undefined || stored === 'ask') return this.notify();
      return this.update(serverId, { consent: 'ask' });
    }
    this.session.delete(serverId);
    return this.update(serverId, consent === 'ask' ? { consent } : { consent, grantedAt });
  }

  async setSkipReplyReview(serverId: string, skip: boolean): Promise<void> {
    return this.update(serverId, { skipReplyReview: skip });
  }

  /** Forget a removed server, or every decision about one (revoked): it asks again. */
  async forget(serverId: string): Promise<void> {
    const hadSession = this.session.delete(serverId);
    if (this.servers.delete(serverId)) {
      this.notify();
      await this.persist();
    } else if (hadSession) this.notify();
  }

  flush(): Promise<void> {
    return this.writer?.flush() ?? Promise.resolve();
  }

  private async update(serverId: string, patch: Entry): Promise<void> {
    this.servers.set(serverId, { ...this.servers.get(serverId), ...patch });
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
