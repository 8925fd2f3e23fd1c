import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { BRIDGE_PATH, invokeFrameSchema, type HostFrame } from '../../shared/ipc/bridge-protocol.js';
import type { HostEvents } from '../host/host-events.js';
import type { HostRouter } from '../host/router.js';
import { loopbackHosts, refuseLoopbackRequest } from './loopback-guard.js';
import { appCsp, serveStatic } from './static-files.js';

export interface BridgeOptions {
  router: HostRouter;
  events: HostEvents;
  /** The built renderer to serve; absent serves only the bridge. */
  rendererDir?: string;
  port?: number;
  /** Fixed token (tests); by default a fresh random one per launch. */
  token?: string;
  /** The CSP source of MCP App views' pages (e.g. `http://*.localhost:<port>/view/`): all the app may frame. */
  frameSource?: string;
}

/** A running bridge: its URL (with token) and how to stop it. */
export interface RunningBridge {
  port: number;
  token: string;
  /** The page URL a person opens; the token rides in the fragment, which is never sent to a server. */
  url: string;
  close(): Promise<void>;
}

/**
 * Browser mode's link to the host: a loopback-only HTTP server for the renderer's files and
 * a WebSocket speaking the same contract as the Electron preload. Three locks on it: it
 * binds 127.0.0.1 only; every WebSocket must present the per-launch token; Host and Origin
 * must be our own loopback address, which defeats DNS rebinding and cross-site pages.
 */
export async function startBridge(opts: BridgeOptions): Promise<RunningBridge> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  let port = 0;
  const csp = appCsp(opts.frameSource);
  const allowedHosts = () => loopbackHosts(port);

  const server: Server = createServer((req, res) => {
    if (refuseLoopbackRequest(req, res, port)) return;
    if (!opts.rendererDir) {
      res.writeHead(404);
      res.end();
      return;
    }
    void serveStatic(opts.rendererDir, req.url ?? '/', res, csp);
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: 8 * 1024 * 1024 });
  const sockets = new Set<WebSocket>();

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const refusal = checkUpgrade(req, allowedHosts(), token);
    if (refusal) {
      socket.end(`HTTP/1.1 ${refusal}\r\nConnection: close\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      ws.on('message', (data, isBinary) => {
        if (isBinary) return ws.close(1003, 'text frames only');
        void onMessage(ws, frameText(data));
      });
    });
  });

  const onMessage = async (ws: WebSocket, text: string) => {
    let frame;
    try {
      frame = invokeFrameSchema.parse(JSON.parse(text));
    } catch {
      // Without a valid id there is nobody to answer; a malformed frame ends the session.
      ws.close(1008, 'malformed frame');
      return;
    }
    const result = await opts.router.handle(frame.channel, frame.payload);
    send(
      ws,
      result.ok
        ? { type: 'result', id: frame.id, ok: true, value: result.value }
        : { type: 'result', id: frame.id, ok: false, error: result.error },
    );
  };

  const unsubscribe = opts.events.onAny((event, payload) => {
    if (sockets.size === 0) return;
    const text = JSON.stringify({ type: 'event', event, payload } satisfies HostFrame);
    for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(text);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;

  return {
    port,
    token,
    url: `http://127.0.0.1:${port}/#token=${token}`,
    async close() {
      unsubscribe();
      for (const ws of sockets) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(ws: WebSocket, frame: HostFrame): void {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
}

/** Returns an HTTP status line when the upgrade must be refused, or undefined to accept. */
export function checkUpgrade(req: IncomingMessage, hosts: Set<string>, token: string): string | undefined {
  const url = new URL(req.url ?? '/', 'http://placeholder');
  if (url.pathname !== BRIDGE_PATH) return '404 Not Found';
  if (!hosts.has(req.headers.host ?? '')) return '421 Misdirected Request';
  const origin = req.headers.origin;
  if (!origin || !hosts.has(origin.replace(/^http:\/\//, ''))) return '403 Forbidden';
  const given = Buffer.from(url.searchParams.get('token') ?? '');
  const expected = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return '401 Unauthorized';
  return undefined;
}

/** A text frame's payload as a string (ws hands frames over as Buffers, or chunks of one). */
function frameText(data: Buffer | ArrayBuffer | Buffer[]): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}
