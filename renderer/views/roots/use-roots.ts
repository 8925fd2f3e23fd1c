import { useMemo } from 'react';
import type { HostError } from '../../../shared/domain/server-state.js';
import type { RootEntry } from '../../../shared/ipc/contract.js';
import { useSnapshot } from '../../hooks/use-host-state.js';

/** The shared folders as the Folders view sees them. */
export type RootsState =
  { kind: 'loading' } | { kind: 'ready'; roots: RootEntry[] } | { kind: 'error'; error: HostError };

/** Live roots from the store (another window or the CLI may change them). */
export function useRoots(): RootsState {
  const s = useSnapshot('roots');
  return useMemo(() => (s.kind === 'ready' ? { kind: 'ready', roots: s.value } : s), [s]);
}
