import { useMemo } from 'react';
import type { HostError } from '../../../shared/domain/server-state.js';
import type { HostApi, RootEntry } from '../../../shared/ipc/contract.js';
import { useLiveSnapshot } from '../../hooks/use-live-snapshot.js';

export type RootsState =
  { kind: 'loading' } | { kind: 'ready'; roots: RootEntry[] } | { kind: 'error'; error: HostError };

const fetchRoots = (host: HostApi) => host.invoke('roots.list', {});
const onRoots = (host: HostApi, l: (r: RootEntry[]) => void) => host.on('roots.changed', l);

/** Live roots: a snapshot on (re)connect, then every `roots.changed` (another window or the CLI may change them). */
export function useRoots(): RootsState {
  const s = useLiveSnapshot(fetchRoots, onRoots);
  return useMemo(() => (s.kind === 'ready' ? { kind: 'ready', roots: s.value } : s), [s]);
}
