import { useCallback } from 'react';
import type { ServerSecretStatus } from '../../shared/domain/server-secrets.js';
import { useHostStore } from '../host/host-context.js';
import { useSnapshot } from './use-host-state.js';

/** The state of server secrets as the host reports it: names and set/not set, never values. */
export interface ServerSecretsState {
  list: ServerSecretStatus[] | null;
  error: string | null;
  /** Take a fresh list (set/delete answer with one). */
  apply: (list: ServerSecretStatus[]) => void;
}

/**
 * Which `${secret:NAME}` values are stored. The store re-reads them when the server list
 * changes, since an edited config may reference new names.
 */
export function useServerSecrets(): ServerSecretsState {
  const store = useHostStore();
  const s = useSnapshot('serverSecrets');
  const apply = useCallback((next: ServerSecretStatus[]) => store.put('serverSecrets', next), [store]);
  return {
    list: s.kind === 'ready' ? s.value : null,
    error: s.kind === 'error' ? s.error.message : null,
    apply,
  };
}
