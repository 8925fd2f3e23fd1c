import type { OpenedClient } from './client-factory.js';
import { closeOpened } from './close-session.js';

/**
 * The one session a connection may be opening at a time. stop() cancels it and waits until
 * it has settled: otherwise a server still being spawned when the app quits would finish
 * starting after dispose() resolved, and outlive the app.
 */
export class SessionOpener {
  private opening?: { abort: AbortController; settled: Promise<unknown> };

  /**
   * Open a session with a signal that cancel() aborts. If the attempt went stale meanwhile
   * (stop, restart), the session is closed, tree and all, and undefined is returned.
   */
  async open(
    start: (signal: AbortSignal) => Promise<OpenedClient>,
    stale: () => boolean,
  ): Promise<OpenedClient | undefined> {
    const abort = new AbortController();
    const opened = start(abort.signal).then(async (session) => {
      if (!stale()) return session;
      await closeOpened(session);
      return undefined;
    });
    const entry = { abort, settled: opened.catch(() => undefined) };
    this.opening = entry;
    try {
      return await opened;
    } finally {
      if (this.opening === entry) this.opening = undefined;
    }
  }

  /** Abort the open under way, if any; resolves once its process (if one started) is gone. */
  async cancel(): Promise<void> {
    const entry = this.opening;
    entry?.abort.abort();
    await entry?.settled;
  }
}
