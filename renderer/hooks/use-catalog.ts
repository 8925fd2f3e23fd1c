import { useMemo } from 'react';
import type { CatalogSnapshot } from '../../shared/domain/catalog.js';
import type { HostError } from '../../shared/domain/server-state.js';
import type { HostApi } from '../../shared/ipc/contract.js';
import { useLiveSnapshot } from './use-live-snapshot.js';

/** The catalog as the views see it. */
export type CatalogState =
  { kind: 'loading' } | { kind: 'ready'; catalog: CatalogSnapshot } | { kind: 'error'; error: HostError };

const fetchCatalog = (host: HostApi) => host.invoke('catalog.get', {});
const onCatalog = (host: HostApi, l: (c: CatalogSnapshot) => void) => host.on('catalog.changed', l);

/** Live catalog: a snapshot on (re)connect, then every `catalog.changed`. */
export function useCatalog(): CatalogState {
  const s = useLiveSnapshot(fetchCatalog, onCatalog);
  return useMemo(() => (s.kind === 'ready' ? { kind: 'ready', catalog: s.value } : s), [s]);
}
