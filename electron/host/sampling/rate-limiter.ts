/**
 * A token bucket per key: `capacity` requests at once, refilled evenly over `perMs`. A server
 * that loops on sampling would otherwise spend the person's model quota (and attention) as
 * fast as it can ask; the spec asks clients to rate-limit.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly capacity = 10,
    readonly perMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Take one token for `key`: 0 when allowed, else how many ms until one is free. */
  take(key: string): number {
    const t = this.now();
    const b = this.buckets.get(key) ?? { tokens: this.capacity, at: t };
    const refilled = Math.min(this.capacity, b.tokens + ((t - b.at) * this.capacity) / this.perMs);
    if (refilled >= 1) {
      this.buckets.set(key, { tokens: refilled - 1, at: t });
      return 0;
    }
    this.buckets.set(key, { tokens: refilled, at: t });
    return Math.ceil(((1 - refilled) * this.perMs) / this.capacity);
  }

  /** Drop a key's bucket (its owner is gone). */
  forget(key: string): void {
    this.buckets.delete(key);
  }
}
