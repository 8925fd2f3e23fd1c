/**
 * A per-second budget: the first `perSecond` events of each one-second window pass, the rest
 * are counted. When a window that dropped something ends, `onDropped` hears how many, once,
 * so a flood leaves one summary line instead of a million.
 */
export class RateWindow {
  private windowStart = 0;
  private used = 0;
  private dropped = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    readonly perSecond: number,
    private readonly onDropped: (count: number) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether one more event fits this window. */
  take(): boolean {
    return this.takeSome(1) === 1;
  }

  /** Take up to `n` events; returns how many fit (the rest are counted as dropped). */
  takeSome(n: number): number {
    const t = this.now();
    if (t - this.windowStart >= 1000) {
      this.flush();
      this.windowStart = t;
      this.used = 0;
    }
    const fit = Math.min(n, this.perSecond - this.used);
    this.used += fit;
    if (fit < n) {
      if (this.dropped === 0) {
        // The summary must appear even if the flood stops and nothing else arrives.
        this.timer = setTimeout(() => this.flush(), Math.max(0, this.windowStart + 1000 - t));
        this.timer.unref?.();
      }
      this.dropped += n - fit;
    }
    return fit;
  }

  /** Report what was dropped so far (also called when the window rolls over). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.dropped === 0) return;
    const n = this.dropped;
    this.dropped = 0;
    this.onDropped(n);
  }

  dispose(): void {
    clearTimeout(this.timer);
  }
}
