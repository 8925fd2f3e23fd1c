import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { LIMITS } from '../util/limits.js';
import { ListGuard } from './list-guard.js';
import type { ServerOutput } from './server-output.js';
import { installFramer } from './stdio-framer.js';

/** Which way a message travelled, from the host's point of view. */
export type Direction = 'in' | 'out';

/**
 * Observe every JSON-RPC message a transport carries, without replacing the transport
 * object: the SDK recognises its own StdioClientTransport by prototype to run the era
 * probe on a throwaway sibling process, so a wrapper class would change its behaviour.
 * We patch `send` and intercept the `onmessage` the Client installs. `fix` may repair an
 * incoming message in place after it was observed (as it arrived) and before the SDK sees it.
 */
export function tapTransport(
  transport: Transport,
  tap: (direction: Direction, message: JSONRPCMessage) => void,
  fix?: (message: JSONRPCMessage) => void,
): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    tap('out', message);
    return send(message, options);
  };
  let handler = transport.onmessage;
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => handler,
    set: (fn: Transport['onmessage']) => {
      handler = fn
        ? (message, extra) => {
            tap('in', message);
            fix?.(message);
            fn(message, extra);
          }
        : fn;
    },
  });
}

/**
 * Everything that stands between a server's bytes and the SDK, attached before any byte
 * moves: the bounded stdout framer (stdio), the trace, and the tools/list guard. Each says
 * in the server's log what the server did wrong.
 */
export function guardTransport(transport: Transport, output: ServerOutput): void {
  installFramer(transport, {
    garbage: (bytes, sample) =>
      output.note(`stdout: skipped ${bytes} bytes that are not JSON-RPC: ${JSON.stringify(sample)}`),
    oversize: (bytes, id) =>
      output.note(
        `stdout: dropped a ${bytes.toLocaleString('en-US')}-byte message${id === undefined ? '' : ` (the response to request ${String(id)})`}: over the limit for one message`,
      ),
    flood: (n) =>
      output.note(
        `dropped ${n.toLocaleString('en-US')} notifications from this server unread (over ${LIMITS.notificationsPerSecond} per second)`,
      ),
  });
  const guard = new ListGuard((text) => output.note(text));
  tapTransport(
    transport,
    (dir, msg) => {
      output.record(dir, msg);
      if (dir === 'out') guard.outgoing(msg);
    },
    (msg) => guard.incoming(msg),
  );
}
