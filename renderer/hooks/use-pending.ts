import { useEffect, useState } from 'react';
import type { PendingRequest } from '../../shared/domain/pending.js';
import { useHost, useHostEpoch } from '../host/host-context.js';

/**
 * Everything waiting on a person: a snapshot on (re)connect, then every `pending.changed`.
 * Used once at the top of the app so the nav badge and the chat view agree.
 */
export function usePending(): PendingRequest[] {
  const host = useHost();
  const epoch = useHostEpoch();
  const [pending, setPending] = useState<PendingRequest[]>([]);

  useEffect(() => {
    if (epoch === null) return undefined;
    let live = true;
    let gotEvent = false;
    const off = host.on('pending.changed', (list) => {
      gotEvent = true;
      if (live) setPending(list);
    });
    host.invoke('pending.list', {}).then(
      (list) => {
        if (live && !gotEvent) setPending(list);
      },
      // A host without the broker answers nothing is waiting; the queue stays empty.
      () => undefined,
    );
    return () => {
      live = false;
      off();
    };
  }, [host, epoch]);

  return pending;
}
