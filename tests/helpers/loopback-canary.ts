import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP server that only counts: every TCP connection it accepts and every request
 * it answers (with its own name). A test that must show something never reached a host asserts
 * that the count stayed 0; the positive control of the same test shows it does count.
 */
export interface LoopbackCanary {
  name: string;
  port: number;
  connections: () => number;
  /** Resolves once at least `n` connections were accepted in all. */
  reached: (n: number) => Promise<void>;
  close: () => Promise<void>;
}

/** Start a canary on 127.0.0.1 and a free port. */
export async function startCanary(name: string): Promise<LoopbackCanary> {
  let connections = 0;
  const waiting = new Set<{ n: number; wake: () => void }>();
  const server: Server = createServer((_req, res) => {
    const body = Buffer.from(name);
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': body.length, connection: 'close' });
    res.end(body);
  });
  server.on('connection', () => {
    connections++;
    for (const w of waiting)
      if (connections >= w.n) {
        waiting.delete(w);
        w.wake();
      }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    name,
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    reached: (n) =>
      connections >= n ? Promise.resolve() : new Promise((wake) => waiting.add({ n, wake: () => wake() })),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
