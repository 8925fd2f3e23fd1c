import { useMemo } from 'react';
import type { HostError, ServerSummary } from '../../shared/domain/server-state.js';
import { useSnapshot } from './use-host-state.js';

/** The server list as the views see it. */
export type ServersState =
  { kind: 'loading' } | { kind: 'ready'; servers: ServerSummary[] } | { kind: 'error'; error: HostError };

/** Live server list from the store (a snapshot on (re)connect, then every `servers.changed`). */
export function useServers(): ServersState {
  const s = useSnapshot('servers');
  return useMemo(() => (s.kind === 'ready' ? { kind: 'ready', servers: s.value } : s), [s]);
}
