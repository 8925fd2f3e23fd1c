import { mkdtemp, rm } from 'node:fs/promises';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import type { NetworkDestination } from '../../../../shared/domain/server-state.js';
import { NetworkAllowlist, splitAuthority } from './network-allowlist.js';

/** At most this many distinct destinations are remembered per server (oldest dropped). */
const MAX_DESTINATIONS = 200;
/** How long reaching an allowed destination may take. */
const CONNECT_TIMEOUT_MS = 15_000;

/** What a server tried to reach, deduplicated by host, port and verdict; newest first. */
export class DestinationLog {
  private readonly byKey = new Map<string, NetworkDestination>();

  record(host: string, port: number, allowed: boolean, now = Date.now()): void {
    const key = `${allowed ? '+' : '-'}${host}:${port}`;
    const had = this.byKey.get(key);
    this.byKey.delete(key);
    this.byKey.set(key, { host, port, allowed, count: (had?.count ?? 0) + 1, lastAt: now });
    if (this.byKey.size > MAX_DESTINATIONS) {
      const oldest = this.byKey.keys().next().value;
      if (oldest !== undefined) this.byKey.delete(oldest);
    }
  }

  /** Newest first. */
  list(): NetworkDestination[] {
    return [...this.byKey.values()].reverse();
  }
}

/**
 * The host side of a sandboxed server's network: an HTTP proxy (CONNECT for any TCP, and
 * absolute-form requests for plain HTTP) on a Unix socket that is the only thing the server's
 * empty network namespace can reach (net-forwarder.ts relays to it from 127.0.0.1 inside). It
 * admits only the allowlisted hosts and records every destination asked for, with the verdict.
 */
export class NetworkProxy {
  private allowlist: NetworkAllowlist;
  private readonly sockets = new Set<Duplex>();

  private constructor(
    private readonly server: Server,
    private readonly dir: string,
    readonly socketPath: string,
    hosts: readonly string[],
    private readonly log: DestinationLog,
    private readonly onChange: () => void,
  ) {
    this.allowlist = new NetworkAllowlist(hosts);
    server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) =>
      this.tunnel(req, client, head),
    );
    server.on('request', (req: IncomingMessage, res: ServerResponse) => this.forward(req, res));
    server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  /** A proxy listening on a fresh socket in its own private temp directory. */
  static async start(
    hosts: readonly string[],
    log: DestinationLog,
    onChange: () => void,
  ): Promise<NetworkProxy> {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-desk-net-'));
    const socketPath = join(dir, 'proxy.sock');
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return new NetworkProxy(server, dir, socketPath, hosts, log, onChange);
  }

  /** The config changed: later requests are judged by the new list. */
  setHosts(hosts: readonly string[]): void {
    this.allowlist = new NetworkAllowlist(hosts);
  }

  /** Stop listening, cut every open tunnel and remove the socket. */
  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await rm(this.dir, { recursive: true, force: true });
  }

  private judge(host: string, port: number): boolean {
    const allowed = this.allowlist.allows(host, port);
    this.log.record(host, port, allowed);
    this.onChange();
    return allowed;
  }

  private tunnel(req: IncomingMessage, client: Duplex, head: Buffer): void {
    client.on('error', () => undefined);
    const target = splitAuthority(req.url ?? '');
    if (!target) return refuse(client, 400, 'Bad Request');
    if (!this.judge(target.host, target.port)) return refuse(client, 403, 'Forbidden');
    const upstream = connect({ host: target.host, port: target.port, timeout: CONNECT_TIMEOUT_MS });
    upstream.once('timeout', () => upstream.destroy());
    upstream.once('error', () => refuse(client, 502, 'Bad Gateway'));
    upstream.once('connect', () => {
      upstream.setTimeout(0);
      upstream.removeAllListeners('error');
      upstream.on('error', () => client.destroy());
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  private forward(req: IncomingMessage, res: ServerResponse): void {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('absolute URL expected\n');
      return;
    }
    const host = url.hostname;
    const port = url.port ? Number(url.port) : 80;
    if (url.protocol !== 'http:') {
      res.writeHead(400).end('only http:// is proxied this way; use CONNECT for https\n');
      return;
    }
    if (!this.judge(host.replace(/^\[|\]$/g, '').toLowerCase(), port)) {
      res.writeHead(403).end(`${host}:${port} is not on this server's network allowlist\n`);
      return;
    }
    const headers: Record<string, string | string[] | undefined> = { ...req.headers, connection: 'close' };
    delete headers['proxy-connection'];
    const upstream = httpRequest(
      {
        host,
        port,
        method: req.method,
        path: url.pathname + url.search,
        headers,
        timeout: CONNECT_TIMEOUT_MS,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('timeout', () => upstream.destroy(new Error('timeout')));
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end('the destination could not be reached\n');
      else res.destroy();
    });
    req.pipe(upstream);
  }
}

function refuse(client: Duplex, status: number, text: string): void {
  if (client.writable)
    client.end(`HTTP/1.1 ${status} ${text}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
  else client.destroy();
}
