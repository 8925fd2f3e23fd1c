import { useEffect, useState } from 'react';
import type { HostError, ServerSummary } from '../../shared/domain/server-state.js';
import { asHostError } from '../host/errors.js';
import { useHost, useHostEpoch } from '../host/host-context.js';

/** The server list as the views see it. */
export type ServersState =
  | { kind: 'loading' }
  | { kind: 'ready'; servers: ServerSummary[] }
  | { kind: 'error'; error: HostError };

/** Live server list: a snapshot on (re)connect, then every `servers.changed`. */
export function useServers(): ServersState {
  const host = useHost();
  const epoch = useHostEpoch();
  const [state, setState] = useState<ServersState>({ kind: 'loading' });

  useEffect(() => {
    if (epoch === null) return undefined;
    let live = true;
    // Once an event has arrived it is newer than any snapshot still in flight.
    let gotEvent = false;
    const off = host.on('servers.changed', (servers) => {
      gotEvent = true;
      if (live) setState({ kind: 'ready', servers });
    });
    host.invoke('servers.list', {}).then(
      (servers) => {
        if (live && !gotEvent) setState({ kind: 'ready', servers });
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
