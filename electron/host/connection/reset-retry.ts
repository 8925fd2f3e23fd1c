/**
 * Why not every POST: a connection reset before any byte of the answer does not say whether the
 * server read the request. A keep-alive connection the server closed while idle never delivered
 * it, but a server (or a proxy) can also read a request whole, start on it and then drop the
 * connection. So a reset POST is sent again only when a second copy cannot do harm: a method that
 * changes nothing on the server, or only sets what it set (a second `initialize` at worst leaves
 * the server a session nobody uses, which it expires), or a `tools/call` the error shows never
 * reached it (see `retryable`). The copy carries the same JSON-RPC id, so a server that did see
 * both answers the same request twice, and the client takes the one answer it waits for.
 */
const IDEMPOTENT = new Set([
  'initialize',
  'ping',
  'server/discover',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
  'notifications/initialized',
  'notifications/roots/list_changed',
]);

/** Error codes of a connection that broke before an answer began (fetch rejects only then). */
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET']);

/** What one failed request looked like, for the retry decision. */
export interface FailedPost {
  /** The JSON-RPC method it carried. */
  method: string;
  /** Why fetch rejected (it rejects only before the answer's status and headers are in). */
  error: unknown;
}

/**
 * Whether a POST whose connection was reset before any response byte may be sent once more:
 * an idempotent request always; `tools/call` (which may do anything) only when the reset shows the
 * request never reached the server — it broke while being written or while the connection was
 * being opened — never when the server may have read it and started the work.
 */
export function retryable({ method, error }: FailedPost): boolean {
  const causes = causeChain(error);
  const reset = causes.some(
    (c) => RESET_CODES.has(c.code ?? '') || /other side closed|socket hang up/i.test(c.message ?? ''),
  );
  if (!reset) return false;
  if (IDEMPOTENT.has(method)) return true;
  return (
    method === 'tools/call' &&
    causes.some((c) => (c.syscall === 'write' || c.syscall === 'connect') && RESET_CODES.has(c.code ?? ''))
  );
}

/**
 * A fetch for remote transports that sends a JSON-RPC POST once more, never twice, when its
 * connection is reset before any answer (a keep-alive connection the server had just closed, a
 * proxy recycling one), within the rule of `retryable`. `onRetry` hears each one (the server's log).
 */
export function fetchWithResetRetry(
  base: typeof fetch,
  onRetry?: (method: string, reason: string) => void,
): typeof fetch {
  return async (input, init) => {
    try {
      return await base(input, init);
    } catch (error) {
      const method = rpcMethodOf(init);
      if (method === undefined || init?.signal?.aborted || !retryable({ method, error })) throw error;
      onRetry?.(method, describe(error));
      return base(input, init);
    }
  };
}

/** The method of a POST's JSON-RPC body, when it is one (a string body: it can be sent again). */
function rpcMethodOf(init: RequestInit | undefined): string | undefined {
  if ((init?.method ?? 'GET').toUpperCase() !== 'POST' || typeof init?.body !== 'string') return undefined;
  try {
    const message = JSON.parse(init.body) as { method?: unknown };
    return typeof message?.method === 'string' ? message.method : undefined;
  } catch {
    return undefined;
  }
}

interface Cause {
  code?: string;
  syscall?: string;
  message?: string;
}

function causeChain(error: unknown): Cause[] {
  const out: Cause[] = [];
  for (let e: unknown = error, depth = 0; depth < 6 && typeof e === 'object' && e !== null; depth++) {
    const c = e as { code?: unknown; syscall?: unknown; message?: unknown; cause?: unknown };
    out.push({
      ...(typeof c.code === 'string' ? { code: c.code } : {}),
      ...(typeof c.syscall === 'string' ? { syscall: c.syscall } : {}),
      ...(typeof c.message === 'string' ? { message: c.message } : {}),
    });
    e = c.cause;
  }
  return out;
}

function describe(error: unknown): string {
  const last = causeChain(error).at(-1);
  return last?.code ?? last?.message ?? 'connection reset';
}
