import type { ServerState } from '../../../shared/domain/server-state.js';
import { useNow } from '../../hooks/use-now.js';
import { secondsUntil } from '../../lib/format.js';

/** The words for a connection state; reconnecting counts down to the next attempt. */
export function stateLabel(state: ServerState, now: number): string {
  switch (state.kind) {
    case 'disabled':
      return 'disabled';
    case 'connecting':
      return state.attempt > 1 ? `connecting (attempt ${state.attempt})` : 'connecting…';
    case 'connected':
      return 'connected';
    case 'reconnecting':
      return `reconnecting in ${secondsUntil(state.retryAt, now)}s (attempt ${state.attempt})`;
    case 'failed':
      return 'failed';
    case 'auth-required':
      return 'sign-in needed';
    case 'authenticating':
      return 'signing in…';
  }
}

/** A coloured badge for one server's state; `data-state` carries the kind for tests. */
export function StateBadge({ serverId, state }: { serverId: string; state: ServerState }) {
  const now = useNow(state.kind === 'reconnecting');
  return (
    <span
      className={`badge state state-${state.kind}`}
      data-state={state.kind}
      data-testid={`server-state-${serverId}`}
    >
      {stateLabel(state, now)}
    </span>
  );
}
