import { useEffect, useState } from 'react';
import type { CatalogSnapshot } from '../../shared/domain/catalog.js';
import type { HostError } from '../../shared/domain/server-state.js';
import { asHostError } from '../host/errors.js';
import { useHost, useHostEpoch } from '../host/host-context.js';

/** The catalog as the views see it. */
export type CatalogState =
  | { kind: 'loading' }
  | { kind: 'ready'; catalog: CatalogSnapshot }
  | { kind: 'error'; error: HostError };

/** Live catalog: a snapshot on (re)connect, then every `catalog.changed`. */
export function useCatalog(): CatalogState {
  const host = useHost();
  const epoch = useHostEpoch();
  const [state, setState] = useState<CatalogState>({ kind: 'loading' });

  useEffect(() => {
    if (epoch === null) return undefined;
    let live = true;
    let gotEvent = false;
    const off = host.on('catalog.changed', (catalog) => {
      gotEvent = true;
      if (live) setState({ kind: 'ready', catalog });
    });
    host.invoke('catalog.get', {}).then(
      (catalog) => {
        if (live && !gotEvent) setState({ kind: 'ready', catalog });
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
