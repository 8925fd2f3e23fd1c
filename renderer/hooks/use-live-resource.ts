import { useEffect, useRef, useState } from 'react';
import { useHost, useHostEpoch, useHostStore } from '../host/host-context.js';

/** Whether a resource is kept live, why not, and when its server last said it changed. */
export interface LiveResource {
  live: boolean;
  reason?: string;
  /** When the server last announced a change (absent: not since this view holds it). */
  updatedAt?: number;
}

const IDLE: LiveResource = { live: false };

/**
 * Hold `uri` of `serverId` live while the calling view is mounted: the host subscribes once per
 * server+uri however many views hold it (`holder` names this one), and lets go when the view
 * unmounts or moves to another resource. `onUpdated` runs on every change the server announces.
 */
export function useLiveResource(
  serverId: string,
  uri: string | null,
  holder: string,
  onUpdated?: (at: number) => void,
): LiveResource {
  const host = useHost();
  const store = useHostStore();
  const epoch = useHostEpoch();
  const [state, setState] = useState<{ key: string; value: LiveResource }>({ key: '', value: IDLE });
  const callback = useRef(onUpdated);
  useEffect(() => {
    callback.current = onUpdated;
  });
  const key = `${serverId}\n${uri ?? ''}\n${holder}`;

  useEffect(() => {
    if (uri === null || epoch === null) return undefined;
    let mounted = true;
    const set = (f: (v: LiveResource) => LiveResource) =>
      setState((s) => ({ key, value: f(s.key === key ? s.value : IDLE) }));
    const off = store.on('resources.updated', (u) => {
      if (!mounted || u.serverId !== serverId || u.uri !== uri) return;
      set((v) => ({ ...v, updatedAt: u.at }));
      callback.current?.(u.at);
    });
    host.invoke('resources.subscribe', { serverId, uri, holder }).then(
      (r) => {
        if (mounted) set((v) => ({ ...v, live: r.subscribed, ...(r.reason ? { reason: r.reason } : {}) }));
      },
      () => {
        if (mounted) set((v) => ({ ...v, live: false }));
      },
    );
    return () => {
      mounted = false;
      off();
      // The host keeps nothing for a holder that let go; a failure here means the link is down.
      host.invoke('resources.unsubscribe', { serverId, uri, holder }).catch(() => undefined);
    };
  }, [host, store, epoch, serverId, uri, holder, key]);

  return state.key === key ? state.value : IDLE;
}
