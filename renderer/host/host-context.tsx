import { createContext, useCallback, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { HostApi } from '../../shared/ipc/contract.js';
import type { HostStore } from '../store/host-store.js';
import type { HostLink, LinkStatus } from './host-link.js';

const HostLinkContext = createContext<HostLink | null>(null);
const HostStoreContext = createContext<HostStore | null>(null);

/** Makes one HostLink, and the one store of host state over it, available to every view below. */
export function HostProvider({
  link,
  store,
  children,
}: {
  link: HostLink;
  store: HostStore;
  children: ReactNode;
}) {
  return (
    <HostLinkContext.Provider value={link}>
      <HostStoreContext.Provider value={store}>{children}</HostStoreContext.Provider>
    </HostLinkContext.Provider>
  );
}

/** The renderer's one store of host state (see renderer/store/host-store.ts). */
export function useHostStore(): HostStore {
  const store = useContext(HostStoreContext);
  if (!store) throw new Error('useHostStore outside <HostProvider>');
  return store;
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
