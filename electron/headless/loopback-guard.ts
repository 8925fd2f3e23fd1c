import type { IncomingMessage, ServerResponse } from 'node:http';

/** The Host headers a loopback listener on `port` answers to; any other is a rebinding attempt. */
export function loopbackHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

/**
 * Refuse what a read-only loopback server never serves: another Host (421, DNS rebinding) or a
 * method other than GET and HEAD (405). True when it answered the request.
 */
export function refuseLoopbackRequest(req: IncomingMessage, res: ServerResponse, port: number): boolean {
  if (!loopbackHosts(port).has(req.headers.host ?? '')) {
    res.writeHead(421, { 'Content-Type': 'text/plain' });
    res.end('misdirected request');
    return true;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET' });
    res.end();
    return true;
  }
  return false;
}
