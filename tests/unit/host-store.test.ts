/**
 * The renderer's one store of host state, in plain Node over a scripted HostApi: each list is
 * fetched once however many readers need it, each event channel is subscribed to once, events
 * replace snapshots, a late snapshot never overwrites a newer event, and a reconnect refetches.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ConversationSummary } from '../../shared/domain/chat.js';
import type {
  EventChannel,
  EventOf,
  HostApi,
  RequestChannel,
  ResponseOf,
} from '../../shared/ipc/contract.js';
import type { HostLink, LinkStatus } from '../../renderer/host/host-link.js';
import { HostStore } from '../../renderer/store/host-store.js';

type Answer = { resolve: (value: unknown) => void; reject: (error: unknown) => void };

/** A HostApi whose answers the test gives by hand, counting every call and subscription. */
class ScriptedHost implements HostLink {
  readonly invokes: string[] = [];
  readonly subscriptions: string[] = [];
  private readonly waiting = new Map<string, Answer[]>();
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();
  private readonly statusListeners = new Set<() => void>();
  private current: LinkStatus = { kind: 'open', epoch: 1 };

  readonly api: HostApi = {
    invoke: <C extends RequestChannel>(channel: C): Promise<ResponseOf<C>> => {
      this.invokes.push(channel);
      return new Promise<ResponseOf<C>>((resolve, reject) => {
        const list = this.waiting.get(channel) ?? [];
        list.push({ resolve: (v) => resolve(v as ResponseOf<C>), reject });
        this.waiting.set(channel, list);
      });
    },
    on: <E extends EventChannel>(event: E, listener: (payload: EventOf<E>) => void) => {
      this.subscriptions.push(event);
      const set = this.listeners.get(event) ?? new Set();
      const erased = listener as (payload: unknown) => void;
      set.add(erased);
      this.listeners.set(event, set);
      return () => set.delete(erased);
    },
  };

  status(): LinkStatus {
    return this.current;
  }
  onStatus(listener: () => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Answer the oldest outstanding call on `channel`. */
  async answer<C extends RequestChannel>(channel: C, value: ResponseOf<C>): Promise<void> {
    const next = this.waiting.get(channel)?.shift();
    assert.ok(next, `no ${channel} call is waiting`);
    next.resolve(value);
    await settle();
  }

  /** Fail the oldest outstanding call on `channel`. */
  async fail(channel: RequestChannel, error: unknown): Promise<void> {
    const next = this.waiting.get(channel)?.shift();
    assert.ok(next, `no ${channel} call is waiting`);
    next.reject(error);
    await settle();
  }

  emit<E extends EventChannel>(event: E, payload: EventOf<E>): void {
    for (const l of this.listeners.get(event) ?? []) l(payload);
  }

  setStatus(status: LinkStatus): void {
    this.current = status;
    for (const l of this.statusListeners) l();
  }
}

const settle = () => new Promise<void>((done) => setImmediate(done));
const conv = (id: string, activeRunId?: string): ConversationSummary => ({
  id,
  title: id,
  updatedAt: 1,
  messageCount: 0,
  ...(activeRunId ? { activeRunId } : {}),
});

describe('renderer host store', () => {
  it('fetches each list once and subscribes to each event channel once, however many readers', async () => {
    const host = new ScriptedHost();
    const store = new HostStore(host);
    // Every view that reads a list calls need() on mount: five readers of servers, three of the catalog.
    for (let i = 0; i < 5; i++) store.need('servers');
    for (let i = 0; i < 3; i++) store.need('catalog');
    store.need('serverSecrets');
    const offs = [store.on('chat.event', () => undefined), store.on('chat.event', () => undefined)];
    assert.deepEqual(host.invokes.sort(), ['catalog.get', 'serverSecrets.list', 'servers.list']);
    // servers.changed feeds the servers list and re-reads server secrets: still one subscription.
    assert.deepEqual(host.subscriptions.sort(), ['catalog.changed', 'chat.event', 'servers.changed']);
    for (const off of offs) off();
    store.dispose();
  });

  it('takes the snapshot, then every event; a snapshot older than an event is dropped', async () => {
    const host = new ScriptedHost();
    const store = new HostStore(host);
    const seen: string[] = [];
    store.state.subscribe((s) => seen.push(s.conversations.kind));
    store.need('conversations');
    assert.equal(store.state.getState().conversations.kind, 'loading');
    await host.answer('chat.list', [conv('a')]);
    assert.deepEqual(store.state.getState().conversations, { kind: 'ready', value: [conv('a')] });

    // The host's run state arrives with the list: views read activeRunId from here.
    host.emit('chat.listChanged', [conv('a', 'run-1')]);
    assert.deepEqual(store.state.getState().conversations, { kind: 'ready', value: [conv('a', 'run-1')] });

    // A reconnect asks again; an event that lands before the answer wins over it.
    host.setStatus({ kind: 'waiting', attempt: 1, retryAt: 0, reason: 'test' });
    host.setStatus({ kind: 'open', epoch: 2 });
    assert.equal(host.invokes.filter((c) => c === 'chat.list').length, 2);
    host.emit('chat.listChanged', [conv('a')]);
    await host.answer('chat.list', [conv('a', 'stale-run')]);
    assert.deepEqual(store.state.getState().conversations, { kind: 'ready', value: [conv('a')] });
    assert.ok(seen.length >= 3);
    store.dispose();
  });

  it('re-reads server secrets on servers.changed and takes fresher answers through put()', async () => {
    const host = new ScriptedHost();
    const store = new HostStore(host);
    store.need('serverSecrets');
    await host.answer('serverSecrets.list', []);
    host.emit('servers.changed', []);
    assert.equal(host.invokes.filter((c) => c === 'serverSecrets.list').length, 2);
    await host.answer('serverSecrets.list', [{ name: 'TOKEN', set: false, usedBy: ['x'] }]);
    assert.deepEqual(store.state.getState().serverSecrets, {
      kind: 'ready',
      value: [{ name: 'TOKEN', set: false, usedBy: ['x'] }],
    });
    store.put('serverSecrets', [{ name: 'TOKEN', set: true, usedBy: ['x'] }]);
    const now = store.state.getState().serverSecrets;
    assert.equal(now.kind === 'ready' && now.value[0].set, true);
    store.dispose();
  });

  it('waits for the link before asking, and reports a failed first fetch as an error', async () => {
    const host = new ScriptedHost();
    host.setStatus({ kind: 'connecting', attempt: 0 });
    const store = new HostStore(host);
    store.need('roots');
    assert.deepEqual(host.invokes, []);
    host.setStatus({ kind: 'open', epoch: 1 });
    assert.deepEqual(host.invokes, ['roots.list']);
    await host.fail('roots.list', new Error('boom'));
    assert.deepEqual(store.state.getState().roots, {
      kind: 'error',
      error: { code: 'error', message: 'boom' },
    });
    store.dispose();
  });
});
