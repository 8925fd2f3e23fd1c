import { useCallback, useEffect, useState } from 'react';
import type { ServerSecretStatus } from '../../shared/domain/server-secrets.js';
import { asHostError } from '../host/errors.js';
import { useHost, useHostEpoch } from '../host/host-context.js';

/** The state of server secrets as the host reports it: names and set/not set, never values. */
export interface ServerSecretsState {
  list: ServerSecretStatus[] | null;
  error: string | null;
  /** Take a fresh list (set/delete answer with one). */
  apply: (list: ServerSecretStatus[]) => void;
}

/**
 * Which `${secret:NAME}` values are stored. Re-read when the server list changes, since an
 * edited config may reference new names.
 */
export function useServerSecrets(): ServerSecretsState {
  const host = useHost();
  const epoch = useHostEpoch();
  const [list, setList] = useState<ServerSecretStatus[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const apply = useCallback((next: ServerSecretStatus[]) => {
    setList(next);
    setError(null);
  }, []);

  useEffect(() => {
    if (epoch === null) return undefined;
    let live = true;
    const load = () =>
      host.invoke('serverSecrets.list', {}).then(
        (next) => live && apply(next),
        (e: unknown) => live && setError(asHostError(e).message),
      );
    void load();
    const off = host.on('servers.changed', () => void load());
    return () => {
      live = false;
      off();
    };
  }, [host, epoch, apply]);

  return { list, error, apply };
}
