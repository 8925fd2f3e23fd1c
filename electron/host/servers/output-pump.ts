import type { LogLine, TraceEntry } from '../../../shared/domain/server-state.js';
import type { HostEvents } from '../host-events.js';
import type { Disposable } from '../util/disposable.js';

/** What a server's output holds since the last drain; undefined once the server is gone. */
export type OutputDrain = (serverId: string) => { log: LogLine[]; trace: TraceEntry[] } | undefined;

/**
 * Live log and trace lines, batched: a chatty server writes thousands of lines a second, and
 * one `server.output` event per server per window keeps the UI (and the bridge) responsive.
 */
export class OutputPump implements Disposable {
  private readonly dirty = new Set<string>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly events: HostEvents,
    private readonly drain: OutputDrain,
    private readonly flushMs = 200,
  ) {}

  /** A server wrote something: flush it with everything else at the end of the window. */
  schedule(serverId: string): void {
    this.dirty.add(serverId);
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.flushMs);
  }

  dispose(): void {
    clearTimeout(this.timer);
  }

  private flush(): void {
    this.timer = undefined;
    for (const id of this.dirty) {
      const drained = this.drain(id);
      if (!drained) continue;
      const { log, trace } = drained;
      if (log.length || trace.length) this.events.emit('server.output', { id, log, trace });
    }
    this.dirty.clear();
  }
}
