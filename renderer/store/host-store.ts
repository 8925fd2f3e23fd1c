import { createStore, type StoreApi } from 'zustand/vanilla';
import type { HostError } from '../../shared/domain/server-state.js';
import type { EventChannel, EventOf, HostApi } from '../../shared/ipc/contract.js';
import { asHostError } from '../host/errors.js';
import type { HostLink } from '../host/host-link.js';

/** One host list as views see it: not yet known, the latest value, or why it could not be had. */
export type Snapshot<T> =
  { kind: 'loading' } | { kind: 'ready'; value: T } | { kind: 'error'; error: HostError };

/** How one list is fetched and kept fresh. */
interface ListSpec<T> {
  fetch: (api: HostApi) => Promise<T>;
  /** The event whose payload is the whole new value. */
  changed?: (store: HostStore, apply: (value: T) => void) => () => void;
  /** An event after which the list must be fetched again (its payload is something else). */
  stale?: (store: HostStore, refetch: () => void) => () => void;
}

const spec = <T>(s: ListSpec<T>) => s;

/** Every host list the views share: one snapshot each, kept fresh by its change event. */
const lists = {
  servers: spec({
    fetch: (api) => api.invoke('servers.list', {}),
    changed: (s, apply) => s.on('servers.changed', apply),
  }),
  catalog: spec({
    fetch: (api) => api.invoke('catalog.get', {}),
    changed: (s, apply) => s.on('catalog.changed', apply),
  }),
  pending: spec({
    fetch: (api) => api.invoke('pending.list', {}),
    changed: (s, apply) => s.on('pending.changed', apply),
  }),
  conversations: spec({
    fetch: (api) => api.invoke('chat.list', {}),
    changed: (s, apply) => s.on('chat.listChanged', apply),
  }),
  roots: spec({
    fetch: (api) => api.invoke('roots.list', {}),
    changed: (s, apply) => s.on('roots.changed', apply),
  }),
  settings: spec({
    fetch: (api) => api.invoke('settings.get', {}),
    changed: (s, apply) => s.on('settings.changed', apply),
  }),
  permissions: spec({
    fetch: (api) => api.invoke('permissions.list', {}),
    changed: (s, apply) => s.on('permissions.changed', apply),
  }),
  // Tool calls running as server tasks: re-read on (re)load, so a card finds its task again.
  tasks: spec({
    fetch: (api) => api.invoke('tasks.list', {}),
    changed: (s, apply) => s.on('tasks.changed', apply),
  }),
  appSettings: spec({
    fetch: (api) => api.invoke('appSettings.get', {}),
    changed: (s, apply) => s.on('appSettings.changed', apply),
  }),
  hostInfo: spec({ fetch: (api) => api.invoke('host.info', {}) }),
  secretStatus: spec({ fetch: (api) => api.invoke('secrets.status', {}) }),
  // An edited server config may reference new `${secret:NAME}` names.
  serverSecrets: spec({
    fetch: (api) => api.invoke('serverSecrets.list', {}),
    stale: (s, refetch) => s.on('servers.changed', refetch),
  }),
};

/** The name of one shared host list. */
export type ListKey = keyof typeof lists;
/** The value of list K. */
export type ListValue<K extends ListKey> = Awaited<ReturnType<(typeof lists)[K]['fetch']>>;
/** Everything the store holds: one snapshot per list. */
export type HostState = { [K in ListKey]: Snapshot<ListValue<K>> };

type Listener = (payload: unknown) => void;

const initialState = (): HostState => {
  const state = {} as Record<ListKey, Snapshot<unknown>>;
  for (const key of Object.keys(lists) as ListKey[]) state[key] = { kind: 'loading' };
  return state as HostState;
};

/**
 * The renderer's one copy of host state. Why zustand's vanilla store: it is a plain object
 * with `getState`/`setState`/`subscribe` that runs (and is unit-tested) without React, while
 * its `useStore(store, selector)` hook re-renders a view only when the slice it selects
 * changes; a hand-written `useSyncExternalStore` module would re-implement exactly that.
 *
 * Lists start on first use (a window that never shows servers never asks for them) and then
 * stay live: one host subscription per event channel, shared by every reader; a snapshot on
 * each (re)connect, since events sent while the link was down are lost. Once an event has
 * arrived it is newer than any snapshot still in flight, so a late snapshot never overwrites it.
 */
export class HostStore {
  readonly state: StoreApi<HostState> = createStore<HostState>()(initialState);
  private readonly started = new Set<ListKey>();
  /** Bumped per fetch: only the newest snapshot of a list may land. */
  private readonly generation = new Map<ListKey, number>();
  /** Lists that got an event since their snapshot was asked for. */
  private readonly eventSince = new Set<ListKey>();
  private readonly channels = new Map<EventChannel, Set<Listener>>();
  private readonly offs: (() => void)[] = [];
  private epoch: number | null;

  constructor(private readonly link: HostLink) {
    this.epoch = openEpoch(link);
    this.offs.push(link.onStatus(() => this.onStatus()));
  }

  /** Start keeping list `key` live, if not already (idempotent; cheap to call on every mount). */
  need(key: ListKey): void {
    if (this.started.has(key)) return;
    this.started.add(key);
    const list: ListSpec<unknown> = lists[key];
    if (list.changed) this.offs.push(list.changed(this, (value) => this.applyEvent(key, value)));
    if (list.stale) this.offs.push(list.stale(this, () => this.fetch(key)));
    if (this.epoch !== null) this.fetch(key);
  }

  /** A fresher value of list `key` the host answered a request with (e.g. `settings.update`). */
  put<K extends ListKey>(key: K, value: ListValue<K>): void {
    this.state.setState({ [key]: { kind: 'ready', value } } as Partial<HostState>);
  }

  /**
   * Listen to a host event through the store's one subscription for that channel: the first
   * listener subscribes to the host, later ones share it.
   */
  on<E extends EventChannel>(event: E, listener: (payload: EventOf<E>) => void): () => void {
    let set = this.channels.get(event);
    if (!set) {
      const listeners = new Set<Listener>();
      set = listeners;
      this.channels.set(event, listeners);
      this.offs.push(
        this.link.api.on(event, (payload) => {
          for (const l of [...listeners]) l(payload);
        }),
      );
    }
    // The channel's payload is EventOf<E>; the map is keyed by name only.
    const erased = listener as Listener;
    set.add(erased);
    return () => {
      set.delete(erased);
    };
  }

  /** Drop every host subscription (tests, page teardown). */
  dispose(): void {
    for (const off of this.offs.splice(0)) off();
    this.channels.clear();
    this.started.clear();
  }

  private onStatus(): void {
    const epoch = openEpoch(this.link);
    if (epoch === this.epoch) return;
    this.epoch = epoch;
    if (epoch !== null) for (const key of this.started) this.fetch(key);
  }

  private applyEvent(key: ListKey, value: unknown): void {
    this.eventSince.add(key);
    this.state.setState({ [key]: { kind: 'ready', value } } as Partial<HostState>);
  }

  private fetch(key: ListKey): void {
    const mine = (this.generation.get(key) ?? 0) + 1;
    this.generation.set(key, mine);
    this.eventSince.delete(key);
    const land = (snapshot: Snapshot<unknown>) => {
      if (this.generation.get(key) !== mine || this.eventSince.has(key)) return;
      // A failed refresh keeps the last good value: the views dim while the link is down anyway.
      if (snapshot.kind === 'error' && this.state.getState()[key].kind === 'ready') return;
      this.state.setState({ [key]: snapshot } as Partial<HostState>);
    };
    const list: ListSpec<unknown> = lists[key];
    list.fetch(this.link.api).then(
      (value) => land({ kind: 'ready', value }),
      (error: unknown) => land({ kind: 'error', error: asHostError(error) }),
    );
  }
}

function openEpoch(link: HostLink): number | null {
  const status = link.status();
  return status.kind === 'open' ? status.epoch : null;
}
