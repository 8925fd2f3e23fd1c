import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

/** Which way a message travelled, from the host's point of view. */
export type Direction = 'in' | 'out';

/**
 * Observe every JSON-RPC message a transport carries, without replacing the transport
 * object: the SDK recognises its own StdioClientTransport by prototype to run the era
 * probe on a throwaway sibling process, so a wrapper class would change its behaviour.
 * We patch `send` and intercept the `onmessage` the Client installs. `drop` may refuse an
 * incoming message before anything sees it (a notification over the rate cap); `fix` may repair
 * one in place after it was observed (as it arrived) and before the SDK sees it.
 */
export function tapTransport(
  transport: Transport,
  tap: (direction: Direction, message: JSONRPCMessage) => void,
  fix?: (message: JSONRPCMessage) => void,
  drop?: (message: JSONRPCMessage) => boolean,
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
            if (drop?.(message)) return;
            tap('in', message);
            fix?.(message);
            fn(message, extra);
          }
        : fn;
    },
  });
}
