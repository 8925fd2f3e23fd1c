import { parseJSONRPCMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { LIMITS } from '../util/limits.js';
import { RateWindow } from '../util/rate-window.js';

/** What the framer tells the server's log about; each names what the server did. */
export interface FramerEvents {
  /** A line that is not JSON (console.log output, binary junk); `sample` is its clipped start. */
  garbage: (bytes: number, sample: string) => void;
  /** A line over the message cap was dropped; `id` is set when it looked like a response. */
  oversize: (bytes: number, id: string | number | undefined) => void;
  /** Notifications over the per-second budget were dropped unread. */
  flood: (dropped: number) => void;
}

/** Notifications that change what the host must do; never dropped for rate. */
const ALWAYS_READ = /^notifications\/(cancelled|[a-z]+\/list_changed|resources\/updated)$/;

/** Whether a message counts against the notification rate cap (a notification the host may drop). */
export function isRateCapped(message: unknown): boolean {
  if (typeof message !== 'object' || message === null || 'id' in message) return false;
  const method = (message as { method?: unknown }).method;
  return typeof method === 'string' && !ALWAYS_READ.test(method);
}

/** Bytes each parsed message took on the wire, so the trace can avoid keeping big ones whole. */
const wireSizes = new WeakMap<object, number>();

/** How many bytes a message took on the wire (undefined: not read by a framer). */
export function wireBytes(message: JSONRPCMessage): number | undefined {
  return wireSizes.get(message);
}

const EDGE = 512;
const ID_PATTERN = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")/;

/**
 * A newline framer for a stdio server's stdout with the same shape as the SDK's ReadBuffer,
 * installed in its place. The SDK's buffer re-concatenates everything unread on every chunk
 * (quadratic for a big message) and, past 10 MB, throws and closes the whole connection: one
 * large result would cost every call on that server. This one copies each line once, keeps at
 * most LIMITS.messageBytes of a line, and turns an oversize response into an error response
 * for its own request, so only that request fails.
 */
export class StdioFramer {
  private parts: Buffer[] = [];
  private lineBytes = 0;
  /** The line being read is over the cap: only its head and tail are kept. */
  private overflow?: { head: Buffer; tail: Buffer };
  private readonly ready: (Buffer | { bytes: number; head: Buffer; tail: Buffer })[] = [];
  private readonly notifications: RateWindow;

  constructor(
    private readonly events: FramerEvents,
    private readonly maxBytes: number = LIMITS.messageBytes,
  ) {
    this.notifications = new RateWindow(LIMITS.notificationsPerSecond, (n) => events.flood(n));
  }

  append(chunk: Buffer): void {
    let from = 0;
    for (let nl = chunk.indexOf(10, from); nl !== -1; nl = chunk.indexOf(10, from)) {
      this.add(chunk.subarray(from, nl));
      this.endLine();
      from = nl + 1;
    }
    if (from < chunk.length) this.add(chunk.subarray(from));
  }

  readMessage(): JSONRPCMessage | null {
    for (let next = this.ready.shift(); next !== undefined; next = this.ready.shift()) {
      if (!Buffer.isBuffer(next)) {
        const message = this.oversize(next);
        if (message) return message;
        continue;
      }
      const text = next.toString('utf8').replace(/\r$/, '');
      if (!text.trim()) continue;
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch {
        // Not JSON at all is noise to skip; JSON that is not JSON-RPC is the SDK's to report.
        this.events.garbage(next.length, text.slice(0, 200));
        continue;
      }
      // A flood is cut before the schema check, which is most of what a message costs.
      if (this.overBudget(raw)) continue;
      const message = parseJSONRPCMessage(raw);
      wireSizes.set(message, next.length);
      return message;
    }
    return null;
  }

  clear(): void {
    this.notifications.dispose();
    this.parts = [];
    this.lineBytes = 0;
    this.overflow = undefined;
    this.ready.length = 0;
  }

  private overBudget(raw: unknown): boolean {
    return isRateCapped(raw) && !this.notifications.take();
  }

  private add(piece: Buffer): void {
    if (piece.length === 0) return;
    this.lineBytes += piece.length;
    if (this.overflow) {
      this.overflow.tail = Buffer.concat([this.overflow.tail, piece]).subarray(-EDGE);
      return;
    }
    if (this.lineBytes > this.maxBytes) {
      const whole = Buffer.concat([...this.parts, piece]);
      this.overflow = {
        head: Buffer.from(whole.subarray(0, EDGE)),
        tail: Buffer.from(whole.subarray(-EDGE)),
      };
      this.parts = [];
      return;
    }
    // Copy: the stream may reuse its chunk's memory, and a subarray would pin the whole chunk.
    this.parts.push(Buffer.from(piece));
  }

  private endLine(): void {
    if (this.overflow) this.ready.push({ bytes: this.lineBytes, ...this.overflow });
    else if (this.parts.length === 1) this.ready.push(this.parts[0]);
    else if (this.parts.length > 1) this.ready.push(Buffer.concat(this.parts, this.lineBytes));
    this.parts = [];
    this.lineBytes = 0;
    this.overflow = undefined;
  }

  /** An oversize line: a response becomes an error for its request; anything else is dropped. */
  private oversize(line: { bytes: number; head: Buffer; tail: Buffer }): JSONRPCMessage | undefined {
    const head = line.head.toString('utf8');
    const tail = line.tail.toString('utf8');
    const isResponse = /"(result|error)"\s*:/.test(head) || /"(result|error)"\s*:/.test(tail);
    const isRequest = /"method"\s*:/.test(head);
    // The SDK writes `id` after `result`; other servers write it first: look at both ends.
    const m = ID_PATTERN.exec(head) ?? ID_PATTERN.exec(tail);
    const id = isResponse && !isRequest && m ? (JSON.parse(m[1]) as string | number) : undefined;
    this.events.oversize(line.bytes, id);
    if (id === undefined) return undefined;
    return {
      jsonrpc: '2.0',
      id,
      error: {
        code: -32603,
        message: `the server sent a ${mb(line.bytes)} response, over the ${mb(this.maxBytes)} limit for one message; MCP Desk dropped it`,
      },
    };
  }
}

function mb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * Put a StdioFramer in place of the SDK stdio transport's read buffer. Returns false for
 * transports without one (HTTP) or if a later SDK renamed the field (then its own buffer stays).
 */
export function installFramer(transport: Transport, events: FramerEvents): boolean {
  const t = transport as unknown as { _readBuffer?: { append?: unknown; readMessage?: unknown } };
  const current = t._readBuffer;
  if (!current || typeof current.append !== 'function' || typeof current.readMessage !== 'function')
    return false;
  (t as { _readBuffer: unknown })._readBuffer = new StdioFramer(events);
  return true;
}
