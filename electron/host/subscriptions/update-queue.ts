import type { ResourceUpdated } from '../../../shared/ipc/contract.js';

/**
 * Resource updates waiting to go out, coalesced per server+uri: a server announcing the same
 * change a hundred times costs one event (and one re-read in each view). At most `cap`
 * resources wait at once; updates for more are counted and dropped, never queued.
 */
export class UpdateQueue {
  private readonly waiting = new Map<string, ResourceUpdated>();
  private timer?: NodeJS.Timeout;
  private droppedCount = 0;

  constructor(
    private readonly deliver: (update: ResourceUpdated) => void,
    private readonly cap: number,
    private readonly flushMs = 50,
  ) {}

  /** Updates dropped because `cap` resources were already waiting. */
  get dropped(): number {
    return this.droppedCount;
  }

  /** How many resources wait now. */
  get size(): number {
    return this.waiting.size;
  }

  push(update: ResourceUpdated): void {
    const key = `${update.serverId}\n${update.uri}`;
    if (!this.waiting.has(key) && this.waiting.size >= this.cap) {
      this.droppedCount++;
      return;
    }
    this.waiting.set(key, update);
    this.timer ??= setTimeout(() => this.flush(), this.flushMs);
  }

  /** Forget what waits for one server (it disconnected or its subscription ended). */
  forget(serverId: string, uri?: string): void {
    for (const [key, u] of this.waiting)
      if (u.serverId === serverId && (uri === undefined || u.uri === uri)) this.waiting.delete(key);
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = [...this.waiting.values()];
    this.waiting.clear();
    for (const u of batch) this.deliver(u);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.waiting.clear();
  }
}
