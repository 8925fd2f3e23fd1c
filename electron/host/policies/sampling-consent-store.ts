import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { SamplingConsent } from '../../../shared/domain/pending.js';
import { SerialWriter } from '../util/atomic-write.js';

const entrySchema = z
  .object({ consent: z.enum(['ask', 'always', 'never']).optional(), skipReplyReview: z.boolean().optional() })
  .strip();
const fileSchema = z
  .object({ version: z.literal(1), servers: z.record(z.string().min(1).max(300), z.unknown()) })
  .passthrough();

/** One server's standing sampling decisions. */
export interface SamplingServerSettings {
  consent: SamplingConsent;
  skipReplyReview: boolean;
}

/**
 * Standing sampling decisions per server. `always`/`never` and "skip reply review" persist
 * (in `<dataDir>/sampling.json`, a file of its own so the settings file other features share
 * keeps its format); `session` lives only in memory, by definition. An unreadable or partly
 * invalid file loses nothing valid: bad entries fall back to `ask`, which is the safe side.
 */
export class SamplingConsentStore {
  private readonly session = new Set<string>();

  private constructor(
    private readonly servers: Map<
      string,
      { consent?: 'ask' | 'always' | 'never'; skipReplyReview?: boolean }
    >,
    private readonly writer: SerialWriter | undefined,
    private readonly extra: Record<string, unknown>,
  ) {}

  /** Load `path`; a missing or unreadable file means "ask" everywhere. */
  static async open(
    path: string,
    warn: (message: string) => void = (m) => console.warn(m),
  ): Promise<SamplingConsentStore> {
    const servers = new Map<string, { consent?: 'ask' | 'always' | 'never'; skipReplyReview?: boolean }>();
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
    if (consent === 'session') {
      this.session.add(serverId);
      // A standing decision would outrank the session one; the newer choice wins.
      const stored = this.servers.get(serverId)?.consent;
      if (stored === undefined || stored === 'ask') return;
      return this.update(serverId, { consent: 'ask' });
    }
    this.session.delete(serverId);
    return this.update(serverId, { consent });
  }

  async setSkipReplyReview(serverId: string, skip: boolean): Promise<void> {
    return this.update(serverId, { skipReplyReview: skip });
  }

  /** Forget a removed server. */
  async forget(serverId: string): Promise<void> {
    this.session.delete(serverId);
    if (this.servers.delete(serverId)) await this.persist();
  }

  flush(): Promise<void> {
    return this.writer?.flush() ?? Promise.resolve();
  }

  private async update(
    serverId: string,
    patch: { consent?: 'ask' | 'always' | 'never'; skipReplyReview?: boolean },
  ): Promise<void> {
    this.servers.set(serverId, { ...this.servers.get(serverId), ...patch });
    await this.persist();
  }

  private persist(): Promise<void> {
    const servers = Object.fromEntries(this.servers);
    return (
      this.writer?.write(`${JSON.stringify({ ...this.extra, version: 1, servers }, null, 2)}\n`) ??
      Promise.resolve()
    );
  }
}
