import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * How the desktop app keeps MCP App views from WebRTC (issue 28 §4). No CSP directive governs
 * WebRTC in Chromium, and taking RTCPeerConnection out of a view's realm does not hold: a nested
 * about:blank frame brings it back, and Electron runs no preload there. So it is stopped in the
 * network instead, for the whole renderer session (our own pages use no WebRTC):
 * - the WebRTC IP handling policy `disable_non_proxied_udp` on every webContents: no UDP at all
 *   (no STUN, no TURN over UDP, no host candidates), and TCP only through the session's proxy;
 * - that proxy, for every https connection, is a loopback listener that refuses everything, with
 *   `<-loopback>` so loopback is not exempt: WebRTC's TURN over TCP/TLS, which Chromium sends
 *   through the https proxy, goes nowhere;
 * - the hosts MCP App views declared (their CSP's origins) bypass it, so their fetches and
 *   sockets still reach them, directly. (A TURN server is dialled by IP address, which no
 *   declared host name matches.)
 * Nothing here imports Electron: the same rules are checked in real Chromium by the tests.
 */

/** The WebRTC IP handling policy every webContents gets. */
export const WEBRTC_IP_POLICY = 'disable_non_proxied_udp';

/** A loopback "proxy" that accepts each connection and closes it at once. */
export interface RefusingProxy {
  port: number;
  /** Connections refused so far (each one a WebRTC relay or an undeclared https attempt). */
  refused(): number;
  close(): Promise<void>;
}

/** Start the refusing proxy on 127.0.0.1 and a free port. */
export async function startRefusingProxy(): Promise<RefusingProxy> {
  let refused = 0;
  const open = new Set<Socket>();
  const server: Server = createServer((socket) => {
    refused += 1;
    socket.on('error', () => undefined);
    socket.destroy();
  });
  server.on('connection', (s) => {
    open.add(s);
    s.on('close', () => open.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    refused: () => refused,
    close: async () => {
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The proxy bypass entry for a declared origin: its host pattern and any explicit port
 * (`https://*.tiles.example` → `*.tiles.example`, `wss://feed.example:8443` → `feed.example:8443`).
 * Undefined for anything that is not a plain origin (the CSP builder has already dropped those).
 */
export function bypassEntryOf(origin: string): string | undefined {
  const m = /^(?:https|wss|http|ws):\/\/((?:\*\.)?[a-z0-9.-]+|\[::1\])(?::(\d{1,5}))?$/i.exec(origin);
  if (!m) return undefined;
  return m[2] ? `${m[1].toLowerCase()}:${m[2]}` : m[1].toLowerCase();
}

/** The session proxy rules for views that declared `origins`, with the refusing proxy on `port`. */
export function viewProxyConfig(
  port: number,
  origins: Iterable<string>,
): { mode: 'fixed_servers'; proxyRules: string; proxyBypassRules: string } {
  const bypass = new Set<string>();
  for (const o of origins) {
    const entry = bypassEntryOf(o);
    if (entry) bypass.add(entry);
  }
  return {
    mode: 'fixed_servers',
    proxyRules: `https=127.0.0.1:${port}`,
    proxyBypassRules: ['<-loopback>', ...[...bypass].sort()].join(','),
  };
}
