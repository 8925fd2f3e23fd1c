import { useCallback, useEffect, useRef, useState } from 'react';
import type { MetricsSnapshot } from '../../shared/domain/metrics.js';
import type { HostError } from '../../shared/domain/server-state.js';
import { asHostError } from '../host/errors.js';
import { useHost, useHostEpoch } from '../host/host-context.js';

/** How often open metrics refresh: counters move with every call, and no event announces them. */
const POLL_MS = 2000;

/** The host's metrics, or why they could not be read. */
export type MetricsState =
  { kind: 'loading' } | { kind: 'ready'; snapshot: MetricsSnapshot } | { kind: 'error'; error: HostError };

/**
 * The host's metrics (`metrics.get`), polled while `active` (a view or tab on screen) and on
 * every reconnect; `reset()` starts counting from zero. Polling, not an event: metrics change
 * on every tool call, and pushing each one would put the renderer on the hot path.
 */
export function useMetrics(active: boolean): {
  state: MetricsState;
  refresh: () => void;
  reset: () => Promise<void>;
} {
  const host = useHost();
  const epoch = useHostEpoch();
  const [state, setState] = useState<MetricsState>({ kind: 'loading' });
  const [tick, setTick] = useState(0);
  const latest = useRef(0);

  useEffect(() => {
    if (epoch === null || !active) return;
    const load = () => {
      const mine = ++latest.current;
      host.invoke('metrics.get', {}).then(
        (snapshot) => {
          if (latest.current === mine) setState({ kind: 'ready', snapshot });
        },
        (error: unknown) => {
          if (latest.current === mine) setState({ kind: 'error', error: asHostError(error) });
        },
      );
    };
    load();
    const timer = setInterval(load, POLL_MS);
    return () => clearInterval(timer);
  }, [host, epoch, active, tick]);

  const refresh = useCallback(() => setTick((t) => t + 1), []);
  const reset = useCallback(async () => {
    const snapshot = await host.invoke('metrics.reset', {});
    latest.current++;
    setState({ kind: 'ready', snapshot });
  }, [host]);
  return { state, refresh, reset };
}
