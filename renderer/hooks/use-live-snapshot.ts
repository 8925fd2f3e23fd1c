import { useEffect, useState } from 'react';
import type { HostError } from '../../shared/domain/server-state.js';
import type { HostApi } from '../../shared/ipc/contract.js';
import { asHostError } from '../host/errors.js';
import { useHost, useHostEpoch } from '../host/host-context.js';

/** A host list as views see it: loading, the latest value, or why it could not be had. */
export type LiveState<T> =
  { kind: 'loading' } | { kind: 'ready'; value: T } | { kind: 'error'; error: HostError };

/**
 * A snapshot on (re)connect, then every change event. `fetch` and `subscribe` must be
 * stable (module-level) functions. Once an event has arrived it is newer than any snapshot
 * still in flight, so a late snapshot never overwrites it.
 */
export function useLiveSnapshot<T>(
  fetch: (host: HostApi) => Promise<T>,
  subscribe: (host: HostApi, listener: (value: T) => void) => () => void,
): LiveState<T> {
  const host = useHost();
  const epoch = useHostEpoch();
  const [state, setState] = useState<LiveState<T>>({ kind: 'loading' });

  useEffect(() => {
    if (epoch === null) return undefined;
    let live = true;
    let gotEvent = false;
    const off = subscribe(host, (value) => {
      gotEvent = true;
      if (live) setState({ kind: 'ready', value });
    });
    fetch(host).then(
      (value) => {
        if (live && !gotEvent) setState({ kind: 'ready', value });
      },
      (error: unknown) => {
        if (live && !gotEvent) setState({ kind: 'error', error: asHostError(error) });
      },
    );
    return () => {
      live = false;
      off();
    };
  }, [host, epoch, fetch, subscribe]);

  return state;
}
