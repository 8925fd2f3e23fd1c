import { useMemo } from 'react';
import type { HostError, ServerSummary } from '../../shared/domain/server-state.js';
import type { HostApi } from '../../shared/ipc/contract.js';
import { useLiveSnapshot } from './use-live-snapshot.js';

/** The server list as the views see it. */
export type ServersState =
  { kind: 'loading' } | { kind: 'ready'; servers: ServerSummary[] } | { kind: 'error'; error: HostError };

const fetchServers = (host: HostApi) => host.invoke('servers.list', {});
const onServers = (host: HostApi, l: (s: ServerSummary[]) => void) => host.on('servers.changed', l);

/** Live server list: a snapshot on (re)connect, then every `servers.changed`. */
export function useServers(): ServersState {
  const s = useLiveSnapshot(fetchServers, onServers);
  return useMemo(() => (s.kind === 'ready' ? { kind: 'ready', servers: s.value } : s), [s]);
}
