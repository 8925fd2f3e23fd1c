import { HostFailure } from '../util/errors.js';

/** Bytes of an HTTP error body we keep: enough to quote, never a hostile server's 10 MB. */
const ERROR_BODY_BYTES = 4096;
/** Characters of a body quoted in an error message. */
const QUOTE_CHARS = 200;
/** Redirect hops we follow before calling it a loop (fetch itself stops at 20). */
const MAX_HOPS = 10;

/**
 * The fetch a remote transport runs on, watching what the server actually answers so a
 * failed connect can say what happened in words ("this URL serves a web page", "redirect
 * loop", "HTTP 500: ...") instead of the transport's symptom ("SSE error: Invalid content
 * type"). It also caps every HTTP error body, so a hostile 10 MB 500 is never buffered,
 * and, while connecting, ties every request to the connect deadline so none outlives it.
 */
export class RemoteInspector {
  /** The first answer that proves the endpoint is not (working) MCP; it explains a failed connect. */
  diagnosis?: HostFailure;
  /** While connecting: JSON answers are checked to be JSON-RPC, requests end with the deadline. */
  connecting = true;
  /** Event streams that have not sent a byte yet, oldest first (the first silence is the cause). */
  private silent: { note: string }[] = [];
  private hops: string[] = [];

  constructor(
    private readonly deadline: AbortSignal,
    private readonly base: typeof fetch = fetch,
  ) {}

  /** Why the server may be silent, when an event stream it opened never sent a byte. */
  silenceNote(): string | undefined {
    return this.silent[0]?.note;
  }

  /** The fetch to hand to the SDK transports. */
  readonly fetch: typeof fetch = async (input, init) => {
    const connecting = this.connecting;
    const url = input instanceof Request ? input.url : String(input);
    const rpc = connecting ? rpcRequestOf(init) : undefined;
    const accept = new Headers(init?.headers).get('accept') ?? '';
    const mcp = rpc !== undefined || /text\/event-stream/i.test(accept);
    const signal = connecting
      ? init?.signal
        ? AbortSignal.any([init.signal, this.deadline])
        : this.deadline
      : init?.signal;
    let response: Response;
    try {
      response = await this.base(input, { ...init, ...(signal ? { signal } : {}) });
    } catch (error) {
      if (causeMessages(error).some((m) => /redirect count exceeded/i.test(m)))
        throw this.diagnose(
          new HostFailure('redirect_loop', `redirect loop: gave up after 20 hops from ${url}`),
        );
      throw error;
    }
    const status = response.status;
    if (status >= 300 && status < 400 && response.headers.has('location')) {
      this.followHop(url, response);
      return response;
    }
    this.hops = [];
    if (status >= 400) return this.capErrorBody(response, connecting);
    const type = (response.headers.get('content-type') ?? '').toLowerCase();
    if (mcp && /text\/html/.test(type)) {
      await response.body?.cancel().catch(() => undefined);
      throw this.diagnose(new HostFailure('not_mcp', 'this URL serves a web page (text/html), not MCP'));
    }
    if (/text\/event-stream/.test(type) && connecting) return this.watchStream(response, rpc?.method);
    if (rpc?.id !== undefined && status !== 202 && status !== 204) {
      if (/json/.test(type)) return this.checkJsonRpc(response);
      await response.body?.cancel().catch(() => undefined);
      throw this.diagnose(
        new HostFailure(
          'not_mcp',
          `the server answered ${type.split(';')[0] || 'an untyped body'} to ${rpc.method}, not MCP (JSON-RPC or an event stream)`,
        ),
      );
    }
    return response;
  };

  /** Keep the first diagnosis: later symptoms usually follow from it. */
  private diagnose(failure: HostFailure): HostFailure {
    this.diagnosis ??= failure;
    return failure;
  }

  private followHop(url: string, response: Response): void {
    const target = new URL(response.headers.get('location') ?? '', url).href;
    if (this.hops.length === 0) this.hops.push(url);
    const seen = this.hops.includes(target);
    this.hops.push(target);
    if (!seen && this.hops.length <= MAX_HOPS) return;
    const hops = this.hops.length - 1;
    const path = this.hops.map((h) => new URL(h).pathname).join(' → ');
    this.hops = [];
    void response.body?.cancel().catch(() => undefined);
    throw this.diagnose(new HostFailure('redirect_loop', `redirect loop after ${hops} hops (${path})`));
  }

  /** Read at most ERROR_BODY_BYTES of an error body, drop the rest (and with it the socket). */
  private async capErrorBody(response: Response, connecting: boolean): Promise<Response> {
    const { text, truncated } = await readCapped(response, ERROR_BODY_BYTES);
    const status = response.status;
    // 401/403 are sign-in walls and 404/405 mean "try legacy SSE": the SDK words those itself.
    if (connecting && ![401, 403, 404, 405].includes(status)) {
      const quote = text.trim().slice(0, QUOTE_CHARS);
      const more = truncated || text.trim().length > QUOTE_CHARS ? '…' : '';
      this.diagnose(
        new HostFailure(
          'http_error',
          `HTTP ${status}${quote ? `: ${quote}${more}` : ` ${response.statusText}`}`,
        ),
      );
    }
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(truncated ? `${text}…` : text, {
      status,
      statusText: response.statusText,
      headers,
    });
  }

  /** Parse a connect-time JSON answer once, so an endpoint speaking other JSON fails at once. */
  private async checkJsonRpc(response: Response): Promise<Response> {
    const text = await response.text();
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    const messages = Array.isArray(value) ? (value as unknown[]) : [value];
    const ok = messages.length > 0 && messages.every(isJsonRpc);
    if (!ok)
      throw this.diagnose(
        new HostFailure(
          'not_mcp',
          `the server answered JSON that is not JSON-RPC: ${text.trim().slice(0, QUOTE_CHARS)}`,
        ),
      );
    return new Response(text, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }

  /** Note an event stream until its first byte, so a timeout can say the server opened it and fell silent. */
  private watchStream(response: Response, method: string | undefined): Response {
    if (!response.body) return response;
    const note = method
      ? `the server opened an event stream answering ${method} and sent nothing`
      : 'the server opened its event stream (GET) and sent nothing';
    const silent = { note };
    this.silent.push(silent);
    let seen = false;
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform: (chunk, controller) => {
          if (!seen && chunk.byteLength > 0) {
            seen = true;
            this.silent = this.silent.filter((s) => s !== silent);
          }
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }
}

/** The JSON-RPC request a fetch carries (method and id), if its body is one. */
function rpcRequestOf(init: RequestInit | undefined): { method: string; id?: unknown } | undefined {
  if ((init?.method ?? 'GET').toUpperCase() !== 'POST' || typeof init?.body !== 'string') return undefined;
  try {
    const msg = JSON.parse(init.body) as unknown;
    const one = (Array.isArray(msg) ? (msg as unknown[])[0] : msg) as {
      method?: unknown;
      id?: unknown;
    } | null;
    return one && typeof one.method === 'string' ? { method: one.method, id: one.id } : undefined;
  } catch {
    return undefined;
  }
}

function isJsonRpc(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return v.jsonrpc === '2.0' && ('result' in v || 'error' in v || typeof v.method === 'string');
}

/** Up to `cap` bytes of a body as text, cancelling the rest. */
async function readCapped(response: Response, cap: number): Promise<{ text: string; truncated: boolean }> {
  const reader = response.body?.getReader();
  if (!reader) return { text: '', truncated: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  try {
    for (;;) {
      const step: { done: boolean; value?: unknown } = await reader.read();
      if (step.done || !(step.value instanceof Uint8Array)) break;
      const value = step.value;
      chunks.push(value);
      size += value.byteLength;
      if (size >= cap) {
        truncated = true;
        break;
      }
    }
  } catch {
    // A body cut short still quotes what arrived.
  } finally {
    if (truncated) await reader.cancel().catch(() => undefined);
    else reader.releaseLock();
  }
  const all = Buffer.concat(chunks).subarray(0, cap);
  return { text: new TextDecoder().decode(all), truncated };
}

function causeMessages(error: unknown): string[] {
  const out: string[] = [];
  for (let e: unknown = error, depth = 0; depth < 6 && typeof e === 'object' && e !== null; depth++) {
    if (e instanceof Error) out.push(e.message);
    e = (e as { cause?: unknown }).cause;
  }
  return out;
}
