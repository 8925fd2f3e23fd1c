import { useEffect, useState } from 'react';
import type { RootEntry } from '../../../shared/ipc/contract.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { asHostError } from '../../host/errors.js';
import { useHost, useHostEpoch } from '../../host/host-context.js';

export type RootsState = { kind: 'loading' } | { kind: 'ready'; roots: RootEntry[] } | { kind: 'error'; error: HostError };

/** Live roots: a snapshot on (re)connect, then every `roots.changed` (another window or the CLI may change them). */
export function useRoots(): RootsState {
  const host = useHost();
  const epoch = useHostEpoch();
  const [state, setState] = useState<RootsState>({ kind: 'loading' });
  useEffect(() => {
    if (epoch === null) return undefined;
    let live = true;
    // Once an event has arrived it is newer than any snapshot still in flight.
    let gotEvent = false;
    const off = host.on('roots.changed', (roots) => {
      gotEvent = true;
      if (live) setState({ kind: 'ready', roots });
    });
    host.invoke('roots.list', {}).then(
      (roots) => {
        if (live && !gotEvent) setState({ kind: 'ready', roots });
      },
      (error: unknown) => {
        if (live && !gotEvent) setState({ kind: 'error', error: asHostError(error) });
      },
    );
    return () => {
      live = false;
      off();
    };
  }, [host, epoch]);
  return state;
}
