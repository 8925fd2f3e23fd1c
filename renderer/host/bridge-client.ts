import { BRIDGE_PATH, type InvokeFrame } from '../../shared/ipc/bridge-protocol.js';
import {
  isEventChannel,
  type EventChannel,
  type EventOf,
  type HostApi,
  type RequestChannel,
  type RequestOf,
  type ResponseOf,
} from '../../shared/ipc/contract.js';
import { HostCallError } from '../../shared/ipc/host-error.js';
import { hostCallError } from './errors.js';
import type { HostLink, LinkStatus } from './host-link.js';

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: HostCallError) => void;
}

interface Queued extends Pending {
  frame: InvokeFrame;
}

type Listener = (payload: unknown) => void;

/** How the client tells a refused token from a host that is down. */
export interface TokenCheck {
  /** True when the page's own server answers: the host is up, so it refused our token. */
  pageAnswers: () => Promise<boolean>;
  /** Called once the token is known to be refused (the page forgets it). */
  onRejected: () => void;
}

const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 10_000;

/**
 * HostApi over the browser-mode WebSocket bridge. Calls made while a connection attempt
 * is under way wait for it; calls in flight when the socket drops reject (the host may or
 * may not have run them, so we never replay them); between attempts calls reject at once
 * rather than hang. Reconnects back off exponentially and bump `epoch` so views refetch.
 */
export class BridgeClient implements HostApi, HostLink {
  readonly api: HostApi = this;
  private socket: WebSocket | null = null;
  private nextId = 1;
  private epoch = 0;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private disposed = false;
  private current: LinkStatus;
  private readonly pending = new Map<number, Pending>();
  private queue: Queued[] = [];
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly statusListeners = new Set<() => void>();

  constructor(
    private readonly url: string,
    private readonly createSocket: (url: string) => WebSocket = (u) => new WebSocket(u),
    private readonly tokenCheck?: TokenCheck,
  ) {
    this.current = { kind: 'connecting', attempt: 0 };
    this.connect();
  }

  /** Build the bridge URL for this page's origin. */
  static urlFor(location: Location, token: string): string {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${scheme}//${location.host}${BRIDGE_PATH}?token=${encodeURIComponent(token)}`;
  }

  invoke<C extends RequestChannel>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> {
    return new Promise<ResponseOf<C>>((resolve, reject) => {
      const frame: InvokeFrame = { type: 'invoke', id: this.nextId++, channel, payload: request };
      // The wire value is the host's answer for this channel; the host validated it.
      const entry: Queued = { frame, resolve: (v) => resolve(v as ResponseOf<C>), reject };
      if (this.socket && this.socket.readyState === WebSocket.OPEN) {
        this.send(entry);
      } else if (this.current.kind === 'connecting') {
        this.queue.push(entry);
      } else {
        reject(disconnected('not connected to the host'));
      }
    });
  }

  on<E extends EventChannel>(event: E, listener: (payload: EventOf<E>) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    // Payloads of event E are EventOf<E> by the contract; the map is keyed by name only.
    const erased = listener as unknown as Listener;
    set.add(erased);
    return () => {
      set.delete(erased);
    };
  }

  status(): LinkStatus {
    return this.current;
  }

  onStatus(listener: () => void): () => void {
    this.statusListeners.add(listener);
    return () => {
      this.statusListeners.delete(listener);
    };
  }

  /** Close for good (tests, page teardown); everything pending rejects. */
  dispose(): void {
    this.disposed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.socket?.close();
    this.failAll('the page closed the connection');
  }

  private connect(): void {
    this.setStatus({ kind: 'connecting', attempt: this.attempt });
    let socket: WebSocket;
    try {
      socket = this.createSocket(this.url);
    } catch (error) {
      this.scheduleRetry(error instanceof Error ? error.message : String(error));
      return;
    }
    this.socket = socket;
    socket.addEventListener('open', () => {
      this.attempt = 0;
      this.epoch += 1;
      this.setStatus({ kind: 'open', epoch: this.epoch });
      const queued = this.queue;
      this.queue = [];
      for (const entry of queued) this.send(entry);
    });
    socket.addEventListener('message', (event: MessageEvent<unknown>) => {
      if (typeof event.data === 'string') this.receive(event.data);
    });
    socket.addEventListener('close', (event: CloseEvent) => {
      if (this.socket !== socket) return;
      this.socket = null;
      const reason = event.reason || (event.code === 1006 ? 'connection lost' : `closed (${event.code})`);
      this.failAll(`disconnected from host: ${reason}`);
      if (this.disposed) return;
      // The browser hides the upgrade's 403, so a socket that never opened while the page's
      // server answers means the token was refused: retrying cannot help, the help page can.
      if (this.epoch === 0 && this.tokenCheck) void this.checkToken(reason, this.tokenCheck);
      else this.scheduleRetry(reason);
    });
  }

  private async checkToken(reason: string, check: TokenCheck): Promise<void> {
    const up = await check.pageAnswers().catch(() => false);
    if (this.disposed) return;
    if (!up) {
      this.scheduleRetry(reason);
      return;
    }
    this.disposed = true;
    check.onRejected();
    this.setStatus({ kind: 'no-token', reason: 'rejected' });
  }

  private scheduleRetry(reason: string): void {
    this.attempt += 1;
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (this.attempt - 1));
    // Jitter keeps several tabs from hammering a restarting host in lockstep.
    const wait = Math.round(delay * (0.8 + Math.random() * 0.4));
    this.setStatus({ kind: 'waiting', attempt: this.attempt, retryAt: Date.now() + wait, reason });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, wait);
  }

  /** Try again now instead of waiting out the backoff (the banner's "Retry now"). */
  retryNow(): void {
    if (this.current.kind !== 'waiting' || this.disposed) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.connect();
  }

  private send(entry: Queued): void {
    this.pending.set(entry.frame.id, { resolve: entry.resolve, reject: entry.reject });
    try {
      this.socket?.send(JSON.stringify(entry.frame));
    } catch (error) {
      this.pending.delete(entry.frame.id);
      entry.reject(disconnected(error instanceof Error ? error.message : String(error)));
    }
  }

  private receive(text: string): void {
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof frame !== 'object' || frame === null) return;
    const f = frame as Record<string, unknown>;
    if (f.type === 'result' && typeof f.id === 'number') {
      const pending = this.pending.get(f.id);
      if (!pending) return;
      this.pending.delete(f.id);
      if (f.ok === true) pending.resolve(f.value);
      else pending.reject(hostCallError(f.error));
    } else if (f.type === 'event' && isEventChannel(f.event)) {
      for (const listener of [...(this.listeners.get(f.event) ?? [])]) {
        try {
          listener(f.payload);
        } catch (error) {
          // One broken view must not starve the others of events.
          console.error(`listener for ${f.event} threw`, error);
        }
      }
    }
  }

  private failAll(message: string): void {
    const error = disconnected(message);
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
    for (const q of this.queue) q.reject(error);
    this.queue = [];
  }

  private setStatus(status: LinkStatus): void {
    this.current = status;
    for (const l of [...this.statusListeners]) l();
  }
}

function disconnected(message: string): HostCallError {
  return new HostCallError({ code: 'disconnected', message });
}
