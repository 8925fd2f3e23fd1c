import { reapClosed, type ClosableSession } from './close-session.js';
import type { ProcessSnapshot } from './process-tree.js';

/** Sessions whose leftovers are swept again at stop; a server in a crash loop adds one per crash. */
const MAX_REMEMBERED = 8;
/** A second sweep this long after a crash finds a daemon that was still being born at the first. */
const SWEEP_AGAIN_MS = 1000;

/**
 * What a server that died on its own left behind: its remembered tree and every process carrying
 * its launch marker (a double-forked daemon) are swept when it dies, again a moment later, and
 * once more when its connection stops — and the stop waits for all of it, so a one-shot CLI
 * command that saw the server crash never exits while a sweep is still under way.
 */
export class CrashReaper {
  private readonly dead: ClosableSession[] = [];
  private readonly sweeps = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();

  /** A session's server died by itself: sweep what it left, now and once more shortly. */
  died(session: ClosableSession, tree?: ProcessSnapshot): void {
    this.dead.push(session);
    if (this.dead.length > MAX_REMEMBERED) this.dead.shift();
    this.track(reapClosed(session, tree));
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.track(reapClosed(session));
    }, SWEEP_AGAIN_MS);
    timer.unref();
    this.timers.add(timer);
  }

  /** The connection stops: wait for the sweeps under way, then sweep every dead session's marker a last time. */
  async settle(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.all(this.sweeps);
    const dead = this.dead.splice(0);
    await Promise.all(dead.map((session) => reapClosed(session).catch(() => undefined)));
  }

  private track(sweep: Promise<void>): void {
    const done = sweep.catch(() => undefined);
    this.sweeps.add(done);
    void done.then(() => this.sweeps.delete(done));
  }
}
