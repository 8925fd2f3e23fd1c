import { useEffect } from 'react';
import { useStore } from 'zustand';
import type { EventChannel, EventOf } from '../../shared/ipc/contract.js';
import { useHostStore } from '../host/host-context.js';
import type { ListKey, ListValue, Snapshot } from '../store/host-store.js';

/** List `key` from the one renderer store, live; re-renders only when that list changes. */
export function useSnapshot<K extends ListKey>(key: K): Snapshot<ListValue<K>> {
  const store = useHostStore();
  useEffect(() => store.need(key), [store, key]);
  return useStore(store.state, (s) => s[key]);
}

/**
 * Listen to a host event through the store's one subscription for its channel. `listener`
 * should be stable (useCallback), or the subscription is renewed on every render.
 */
export function useHostEvent<E extends EventChannel>(
  event: E,
  listener: (payload: EventOf<E>) => void,
): void {
  const store = useHostStore();
  useEffect(() => store.on(event, listener), [store, event, listener]);
}
