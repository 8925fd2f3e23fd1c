import type { ServerState } from '../../../shared/domain/server-state.js';

/** Connected, failed or disabled: nothing more happens without a person or a crash. */
export function isSettled(state: ServerState): boolean {
  return state.kind === 'connected' || state.kind === 'failed' || state.kind === 'disabled';
}

/** Callers waiting for a connection's state to settle, each woken by the change that settles it. */
export class SettleWaiters {
  private readonly waiters = new Set<() => void>();

  /** Resolves with `current()` once `wake` sees a settled state, or when `timeoutMs` runs out. */
  wait(current: () => ServerState, timeoutMs: number): Promise<ServerState> {
    if (isSettled(current())) return Promise.resolve(current());
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve(current());
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiters.add(done);
    });
  }

  /** Called on every state change. */
  wake(state: ServerState): void {
    if (isSettled(state)) for (const waiter of [...this.waiters]) waiter();
  }
}
