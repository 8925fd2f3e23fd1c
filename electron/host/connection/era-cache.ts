import { readFile } from 'node:fs/promises';
import type { PriorDiscovery } from '@modelcontextprotocol/client';
import { SerialWriter } from '../util/atomic-write.js';
import type { Disposable } from '../util/disposable.js';

/**
 * Each server's protocol-era verdict (2025 handshake vs 2026-07-28 discover), cached so
 * a reconnect or relaunch needs no probe (on stdio the probe costs a whole extra process).
 * Keyed by a hash of the launch config: a changed command is a different server.
 * Dated, because a stale legacy verdict would succeed silently forever against a server
 * that has since upgraded.
 */
export interface EraCache extends Disposable {
  get(key: string): PriorDiscovery | undefined;
  /**
   * Store a verdict. A `tentative` one (a probe that only timed out, then the 2025 handshake
   * worked) lives a day instead of a week and never replaces a verdict the server gave itself.
   */
  set(key: string, verdict: PriorDiscovery, opts?: { tentative?: boolean }): void;
  delete(key: string): void;
  /** Finish pending writes (shutdown). */
  dispose(): Promise<void>;
}

interface Stored {
  verdict: PriorDiscovery;
  storedAt: number;
  /** Inferred from silence, not answered: see EraCache.set. */
  tentative?: true;
}

const HORIZON_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * A silent probe is weak evidence (the server may only have been slow to start, or the machine
 * busy): long enough that every start of the day skips the probe, short enough that a dual-era
 * server wrongly held to the 2025 handshake is probed again tomorrow.
 */
const TENTATIVE_HORIZON_MS = 24 * 60 * 60 * 1000;

/** An in-memory cache (CLI one-shots, tests). */
export class MemoryEraCache implements EraCache {
  protected readonly map = new Map<string, Stored>();

  constructor(protected readonly horizonMs = HORIZON_MS) {}

  get(key: string): PriorDiscovery | undefined {
    return this.live(key)?.verdict;
  }

  set(key: string, verdict: PriorDiscovery, opts: { tentative?: boolean } = {}): void {
    if (opts.tentative && this.live(key)) return;
    this.map.set(key, { verdict, storedAt: Date.now(), ...(opts.tentative ? { tentative: true } : {}) });
  }

  delete(key: string): void {
    this.map.delete(key);
  }

  /** The entry for `key` if it has not expired (an expired one is forgotten). */
  private live(key: string): Stored | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    const horizon = e.tentative ? Math.min(this.horizonMs, TENTATIVE_HORIZON_MS) : this.horizonMs;
    if (Date.now() - e.storedAt > horizon) {
      this.map.delete(key);
      return undefined;
    }
    return e;
  }

  /** Nothing to write: verdicts live only in memory. */
  async dispose(): Promise<void> {}
}

/** The same cache persisted to a JSON file, so the next launch skips the probe too. */
export class FileEraCache extends MemoryEraCache {
  private readonly writer: SerialWriter;

  private constructor(path: string, horizonMs: number) {
    super(horizonMs);
    this.writer = new SerialWriter(path);
  }

  /** Load the file; an unreadable cache is simply empty (it only saves a probe). */
  static async open(path: string, horizonMs = HORIZON_MS): Promise<FileEraCache> {
    const cache = new FileEraCache(path, horizonMs);
    try {
      const data = JSON.parse(await readFile(path, 'utf8')) as Record<string, Stored>;
      for (const [k, v] of Object.entries(data)) {
        if (
          v &&
          typeof v.storedAt === 'number' &&
          (v.verdict?.kind === 'legacy' || v.verdict?.kind === 'modern')
        ) {
          const { verdict, storedAt } = v;
          cache.map.set(k, { verdict, storedAt, ...(v.tentative === true ? { tentative: true } : {}) });
        }
      }
    } catch {
      // Missing or corrupt: start empty.
    }
    return cache;
  }

  override set(key: string, verdict: PriorDiscovery, opts: { tentative?: boolean } = {}): void {
    super.set(key, verdict, opts);
    void this.persist();
  }

  override delete(key: string): void {
    super.delete(key);
    void this.persist();
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }

  override dispose(): Promise<void> {
    return this.flush();
  }

  private persist(): Promise<void> {
    return this.writer.write(JSON.stringify(Object.fromEntries(this.map), null, 1)).catch(() => undefined);
  }
}
