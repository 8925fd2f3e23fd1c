/**
 * How many sign-ins one server may start in a window of time. A broken server (one that
 * rejects every token it is given) would otherwise send the person to the browser again
 * and again; past the budget the sign-in fails with a reason instead.
 */
export class SignInBudget {
  private readonly starts = new Map<string, number[]>();

  constructor(
    private readonly max = 3,
    private readonly windowMs = 10 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Take one attempt for the server; false when its budget is spent. */
  take(serverId: string): boolean {
    const t = this.now();
    const recent = (this.starts.get(serverId) ?? []).filter((at) => t - at < this.windowMs);
    if (recent.length >= this.max) {
      this.starts.set(serverId, recent);
      return false;
    }
    recent.push(t);
    this.starts.set(serverId, recent);
    return true;
  }

  /** Minutes until the next attempt is allowed (for the message). */
  minutesUntilNext(serverId: string): number {
    const oldest = Math.min(...(this.starts.get(serverId) ?? [this.now()]));
    return Math.max(1, Math.ceil((oldest + this.windowMs - this.now()) / 60_000));
  }

  /** A successful sign-in or a sign-out starts the count afresh. */
  reset(serverId: string): void {
    this.starts.delete(serverId);
  }
}
