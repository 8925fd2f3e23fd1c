import type { McpSubscription } from '@modelcontextprotocol/client';
import type { ServerState } from '../../../shared/domain/server-state.js';
import type {
  ResourceSubscriptionInfo,
  ResourceUpdated,
  SubscribeOutcome,
} from '../../../shared/ipc/contract.js';
import type { SessionRequests } from '../connection/session-requests.js';
import type { HostEvents } from '../host-events.js';
import type { Disposable } from '../util/disposable.js';
import { HostFailure, toHostError } from '../util/errors.js';
import { LIMITS } from '../util/limits.js';
import type { Redactor } from '../util/redact.js';
import { SessionWatch, type SessionListener } from './session-watch.js';
import { UpdateQueue } from './update-queue.js';

/** What the subscriptions need of the host: live sessions and server states. */
export interface ResourceSubscriptionDeps {
  /** The requests of a server's live session; throws unknown_server. */
  session: (serverId: string) => SessionRequests;
  /** A server's state; undefined for an unknown server. */
  state: (serverId: string) => ServerState | undefined;
  events: HostEvents;
  redactor: Redactor;
  /** Caps (tests shrink them): live resources per server, updates waiting, re-listens after a dropped stream. */
  limits?: { perServer?: number; queued?: number; relistens?: number; relistenMs?: number };
}

/** One server+uri kept live, with everyone holding it. */
interface Entry {
  serverId: string;
  uri: string;
  holders: Set<string>;
  /** The session the server subscription lives on; undefined: none now. */
  on?: number;
  via?: 'subscribe' | 'listen';
  stream?: McpSubscription;
  reason?: string;
  updates: number;
  lastUpdateAt?: number;
  /** Changes to one entry run one after another, so a quick subscribe/unsubscribe never crosses. */
  chain: Promise<void>;
  relistens: number;
}

const NO_SUPPORT = 'This server does not announce changes to its resources.';
const NOT_CONNECTED = 'The server is not connected; the resource is watched again once it connects.';
const HOLDERS_PER_RESOURCE = 32;

const keyOf = (serverId: string, uri: string) => `${serverId}\n${uri}`;

/**
 * Resources kept live for views and chat attachments, in both protocol eras: 2025 servers get
 * resources/subscribe and resources/unsubscribe, 2026-07-28 servers one subscriptions/listen
 * stream per resource (the SDK's listen(); one stream each, so dropping one resource never
 * reopens the others). Each server+uri is subscribed once however many hold it, dropped when the
 * last holder lets go, forgotten on disconnect and subscribed again on the next session.
 */
export class ResourceSubscriptions implements Disposable, SessionListener {
  private readonly entries = new Map<string, Entry>();
  private readonly watch = new SessionWatch(this);
  private readonly queue: UpdateQueue;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly off: () => void;
  private readonly perServer: number;
  private readonly maxRelistens: number;
  private readonly relistenMs: number;
  private ignoredCount = 0;
  private disposed = false;

  constructor(private readonly deps: ResourceSubscriptionDeps) {
    const l = deps.limits ?? {};
    this.perServer = l.perServer ?? LIMITS.subscriptionsPerServer;
    this.maxRelistens = l.relistens ?? 3;
    this.relistenMs = l.relistenMs ?? 500;
    this.queue = new UpdateQueue(
      (u) => deps.events.emit('resources.updated', u),
      l.queued ?? LIMITS.queuedResourceUpdates,
    );
    this.off = deps.events.on('servers.changed', (list) => this.watch.update(list));
  }

  /** Keep `uri` of `serverId` live for `holder`. */
  async subscribe(serverId: string, uri: string, holder: string): Promise<SubscribeOutcome> {
    const state = this.deps.state(serverId);
    if (!state) throw new HostFailure('unknown_server', `no server named "${serverId}"`);
    let e = this.entries.get(keyOf(serverId, uri));
    if (!e) {
      if (
        state.kind === 'connected' &&
        !this.deps.session(serverId).describe().capabilities.resources?.subscribe
      )
        return { subscribed: false, reason: NO_SUPPORT };
      const held = [...this.entries.values()].filter((x) => x.serverId === serverId).length;
      if (held >= this.perServer)
        return {
          subscribed: false,
          reason: `This server already has ${this.perServer} live resources (the limit); close one first.`,
        };
      e = { serverId, uri, holders: new Set(), updates: 0, chain: Promise.resolve(), relistens: 0 };
      this.entries.set(keyOf(serverId, uri), e);
    }
    if (!e.holders.has(holder) && e.holders.size >= HOLDERS_PER_RESOURCE)
      return { subscribed: false, reason: `At most ${HOLDERS_PER_RESOURCE} views can hold one resource.` };
    e.holders.add(holder);
    await this.reconcile(e);
    if (e.on !== undefined) return { subscribed: true };
    return { subscribed: false, reason: e.reason ?? NOT_CONNECTED };
  }

  /** `holder` lets go of `uri`; the last holder ends the server subscription. */
  async unsubscribe(serverId: string, uri: string, holder: string): Promise<{ released: boolean }> {
    const e = this.entries.get(keyOf(serverId, uri));
    if (!e) return { released: false };
    const released = e.holders.delete(holder);
    await this.reconcile(e);
    return { released };
  }

  /** Everything kept live, for views and tests. */
  list(): ResourceSubscriptionInfo[] {
    return [...this.entries.values()].map((e) => ({
      serverId: e.serverId,
      uri: e.uri,
      holders: [...e.holders].sort(),
      active: e.on !== undefined,
      ...(e.via ? { via: e.via } : {}),
      updates: e.updates,
      ...(e.lastUpdateAt !== undefined ? { lastUpdateAt: e.lastUpdateAt } : {}),
      ...(e.on === undefined ? { reason: e.reason ?? NOT_CONNECTED } : {}),
    }));
  }

  /** Updates for resources nobody subscribed (or no longer): dropped, counted. */
  get ignored(): number {
    return this.ignoredCount;
  }

  /** Updates dropped because too many resources were waiting to be announced. */
  get dropped(): number {
    return this.queue.dropped;
  }

  /** notifications/resources/updated from a server (either era). */
  updated(serverId: string, uri: string): void {
    const e = this.entries.get(keyOf(serverId, uri));
    if (!e || e.on === undefined) {
      this.ignoredCount++;
      return;
    }
    const at = Date.now();
    e.updates++;
    e.lastUpdateAt = at;
    this.queue.push({ serverId, uri, at } satisfies ResourceUpdated);
  }

  connected(id: string): void {
    for (const e of this.of(id)) {
      e.relistens = 0;
      void this.reconcile(e);
    }
  }

  disconnected(id: string): void {
    // The server dropped its side with the session: nothing to tell it, only to forget. (The
    // event may trail the state: an entry already on a newer session stays.)
    const now = this.sessionNow(id);
    for (const e of this.of(id)) {
      if (e.on === undefined || e.on === now) continue;
      this.abandon(e);
      e.reason = NOT_CONNECTED;
    }
  }

  removed(id: string): void {
    for (const e of this.of(id)) {
      this.abandon(e);
      e.holders.clear();
      this.entries.delete(keyOf(e.serverId, e.uri));
    }
  }

  dispose(): void {
    this.disposed = true;
    this.off();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.queue.dispose();
    // The host closes every session right after: the servers drop their side with it.
    for (const e of this.entries.values()) this.abandon(e);
    this.entries.clear();
  }

  /** The server's session now, from its state (servers.changed events may trail it). */
  private sessionNow(serverId: string): number | undefined {
    const state = this.deps.state(serverId);
    return state?.kind === 'connected' ? state.since : undefined;
  }

  private of(serverId: string): Entry[] {
    return [...this.entries.values()].filter((e) => e.serverId === serverId);
  }

  private reconcile(e: Entry): Promise<void> {
    e.chain = e.chain.then(() => this.step(e)).catch(() => undefined);
    return e.chain;
  }

  /** Bring the server's side in line with the holders and the current session. */
  private async step(e: Entry): Promise<void> {
    const session = this.sessionNow(e.serverId);
    if (e.on !== undefined && e.on !== session) this.abandon(e);
    const wanted = e.holders.size > 0 && !this.disposed;
    if (wanted && session !== undefined && e.on === undefined) await this.establish(e, session);
    else if (!wanted && e.on !== undefined) await this.release(e);
    if (e.holders.size === 0 && e.on === undefined && this.entries.get(keyOf(e.serverId, e.uri)) === e)
      this.entries.delete(keyOf(e.serverId, e.uri));
  }

  private async establish(e: Entry, session: number): Promise<void> {
    try {
      const requests = this.deps.session(e.serverId);
      const { era, capabilities } = requests.describe();
      if (!capabilities.resources?.subscribe) {
        e.reason = NO_SUPPORT;
        return;
      }
      if (era === 'modern') {
        const stream = await requests.listenResources([e.uri]);
        if (!stream.honoredFilter.resourceSubscriptions?.includes(e.uri)) {
          await stream.close();
          e.reason = 'The server declined to watch this resource.';
          return;
        }
        if (this.sessionNow(e.serverId) !== session) return void stream.close();
        e.stream = stream;
        e.via = 'listen';
        void stream.closed.then((why) => this.streamClosed(e, stream, why));
      } else {
        await requests.subscribeResource(e.uri);
        // A session that ended meanwhile took the subscription with it.
        if (this.sessionNow(e.serverId) !== session) return;
        e.via = 'subscribe';
      }
      e.on = session;
      e.reason = undefined;
    } catch (error) {
      e.reason = `Could not watch this resource: ${toHostError(error, this.deps.redactor).message}`;
    }
  }

  private async release(e: Entry): Promise<void> {
    const { stream, via } = e;
    this.abandon(e);
    try {
      if (stream) await stream.close();
      else if (via === 'subscribe') await this.deps.session(e.serverId).unsubscribeResource(e.uri);
    } catch {
      // A server that is gone or refuses holds nothing we rely on: its updates are ignored now.
    }
  }

  /** Forget the server side without telling the server (its session is gone, or we are releasing it). */
  private abandon(e: Entry): void {
    e.on = undefined;
    e.via = undefined;
    e.stream = undefined;
    this.queue.forget(e.serverId, e.uri);
  }

  /** A listen stream ended: our own close is expected; a dropped one is opened again, a few times. */
  private streamClosed(e: Entry, stream: McpSubscription, why: 'local' | 'graceful' | 'remote'): void {
    if (e.stream !== stream || why === 'local') return;
    this.abandon(e);
    if (why === 'graceful' || e.relistens >= this.maxRelistens) {
      e.reason =
        why === 'graceful' ? 'The server ended the subscription.' : 'The update stream kept dropping.';
      return;
    }
    e.relistens++;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.reconcile(e);
    }, this.relistenMs * e.relistens);
    this.timers.add(timer);
  }
}
