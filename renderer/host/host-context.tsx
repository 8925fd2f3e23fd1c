import { createContext, useCallback, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { HostApi } from '../../shared/ipc/contract.js';
import type { HostLink, LinkStatus } from './host-link.js';

const HostLinkContext = createContext<HostLink | null>(null);

/** Makes one HostLink available to every view below it. */
export function HostProvider({ link, children }: { link: HostLink; children: ReactNode }) {
  return <HostLinkContext.Provider value={link}>{children}</HostLinkContext.Provider>;
}

/** The link itself (status, retry); most components want useHost() instead. */
export function useHostLink(): HostLink {
  const link = useContext(HostLinkContext);
  if (!link) throw new Error('useHostLink outside <HostProvider>');
  return link;
}

/** The one API the renderer talks to the host through. */
export function useHost(): HostApi {
  return useHostLink().api;
}

/** The live link status, re-rendering on change. */
export function useLinkStatus(): LinkStatus {
  const link = useHostLink();
  const subscribe = useCallback((listener: () => void) => link.onStatus(listener), [link]);
  const snapshot = useCallback(() => link.status(), [link]);
  return useSyncExternalStore(subscribe, snapshot);
}

/**
 * Bumps each time the link (re)opens. Data hooks list it as a dependency so they refetch
 * after a reconnect: events sent while we were away are lost, snapshots are not.
 * Null while not connected, so hooks wait instead of firing calls that must fail.
 */
export function useHostEpoch(): number | null {
  const status = useLinkStatus();
  return status.kind === 'open' ? status.epoch : null;
}
