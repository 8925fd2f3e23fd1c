import { z } from 'zod';
import type { SamplingConsent } from '../../../shared/domain/pending.js';
import { ServerEntriesFile } from './server-entries-file.js';

const entrySchema = z
  .object({
    consent: z.enum(['ask', 'always', 'never']).optional(),
    skipReplyReview: z.boolean().optional(),
    grantedAt: z.string().max(40).optional(),
  })
  .strip();
type Entry = z.infer<typeof entrySchema>;

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
  private readonly servers: Map<string, Entry>;

  private constructor(private readonly file: ServerEntriesFile<Entry>) {
    this.servers = file.entries;
  }

  /** Called after every change (before it is written), so views update at once. */
  onChange(listener: () => void): () => void {
    return this.file.onChange(listener);
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
    const labels = { what: 'sampling settings', fallback: 'every server will ask again' };
    return new SamplingConsentStore(await ServerEntriesFile.open(path, entrySchema, labels, warn));
  }

  /** Decisions that live only in memory (CLI one-shots, tests). */
  static inMemory(): SamplingConsentStore {
    return new SamplingConsentStore(ServerEntriesFile.inMemory());
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
      if (stored === undefined || stored === 'ask') return this.file.notify();
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
      await this.file.changed();
    } else if (hadSession) this.file.notify();
  }

  flush(): Promise<void> {
    return this.file.flush();
  }

  private async update(serverId: string, patch: Entry): Promise<void> {
    this.servers.set(serverId, { ...this.servers.get(serverId), ...patch });
    await this.file.changed();
  }
}
