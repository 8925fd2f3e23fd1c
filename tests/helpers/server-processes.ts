// Real server processes, ports and proxies for the integration tests, each torn down by the
// cleanup stack; and the /proc probes that prove nothing was orphaned.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isAlive } from '../../electron/host/connection/process-tree.js';
import type { CleanupStack } from './cleanup-stack.js';
import { waitFor, WAIT_MS } from './wait.js';

/** The repository root (tests spawn the CLI from here). */
export const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** Absolute paths of the fixture servers and the installed reference servers. */
export const SERVERS = {
  everything: join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'),
  filesystem: join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'),
  crash: join(REPO_ROOT, 'tests/fixtures/crash-server.mjs'),
  grandchild: join(REPO_ROOT, 'tests/fixtures/grandchild-server.mjs'),
  modern: join(REPO_ROOT, 'tests/fixtures/modern-server.mjs'),
  modernHttp: join(REPO_ROOT, 'tests/fixtures/modern-http-server.mjs'),
  garbage: join(REPO_ROOT, 'tests/fixtures/garbage-server.mjs'),
  hang: join(REPO_ROOT, 'tests/fixtures/hang-server.mjs'),
  paged: join(REPO_ROOT, 'tests/fixtures/paged-server.mjs'),
  fileResources: join(REPO_ROOT, 'tests/fixtures/file-resource-server.mjs'),
} as const;

/**
 * The MCP App example servers from npm (ext-apps). Run them with `--stdio` only: without it
 * they serve HTTP on 0.0.0.0. See appServer().
 */
export const APP_SERVERS = {
  basicReact: join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-basic-react/dist/index.js'),
  budget: join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-budget-allocator/dist/index.js'),
  systemMonitor: join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-system-monitor/dist/index.js'),
  video: join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-video-resource/dist/index.js'),
  pdf: join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-pdf/dist/index.js'),
} as const;

/** A stdio config for an MCP App example server (always `--stdio`). */
export function appServer(name: keyof typeof APP_SERVERS): Record<string, unknown> {
  return { command: process.execPath, args: [APP_SERVERS[name], '--stdio'] };
}

// Last resort: if the runner kills a file mid-test, `after` never runs; SIGKILL what we spawned.
const spawned = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of spawned)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** A stdio config running a Node script with this Node binary. */
export function nodeServer(
  script: string,
  args: string[] = [],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { command: process.execPath, args: [script, ...args], ...extra };
}

/**
 * Waits until crash-server.mjs, started with CALL_LOG=`log`, has logged `count` slow calls as
 * started: the moment a call is under way on the server, which no fixed wait can know.
 */
export async function slowCallsStarted(log: string, count = 1): Promise<void> {
  await waitFor(`${count} slow call(s) to reach the server (${log})`, () => {
    const lines = existsSync(log) ? readFileSync(log, 'utf8').split('\n') : [];
    return lines.filter((line) => line.startsWith('STARTED ')).length >= count ? true : undefined;
  });
}

/** A port that was free a moment ago (the caller retries if it loses the race). */
export async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** True once something accepts TCP connections on 127.0.0.1:port. */
function portOpen(port: number): Promise<boolean> {
  return new Promise((r) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      r(true);
    });
    socket.once('error', () => r(false));
  });
}

/** A child process we started, with its recent output for failure messages. */
export interface SpawnedServer {
  child: ChildProcess;
  port: number;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  output(): string;
  stop(): Promise<void>;
}

/** Spawn a process, capture its output, and kill it at cleanup. */
export function spawnTracked(
  stack: CleanupStack,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): { child: ChildProcess; output: () => string; stop: () => Promise<void> } {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  spawned.add(child);
  let out = '';
  const keep = (chunk: Buffer) => {
    out = (out + chunk.toString('utf8')).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    spawned.delete(child);
  };
  stack.defer(stop);
  return { child, output: () => out, stop };
}

/** A tracked process that now listens on loopback `port`. */
function listeningOn(proc: ReturnType<typeof spawnTracked>, port: number): SpawnedServer {
  return {
    child: proc.child,
    port,
    origin: `http://127.0.0.1:${port}`,
    output: proc.output,
    stop: proc.stop,
  };
}

/**
 * server-everything over Streamable HTTP (`/mcp`) or legacy SSE (`/sse`) on a free port.
 * Resolves once the port accepts connections; retries on a lost port race.
 */
export async function startEverythingHttp(
  stack: CleanupStack,
  mode: 'streamableHttp' | 'sse',
): Promise<SpawnedServer> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const proc = spawnTracked(stack, process.execPath, [SERVERS.everything, mode], {
      ...process.env,
      PORT: String(port),
    });
    // Its own "listening" line, not just an open port: another process may have won the port.
    const up = await waitFor(
      `server-everything ${mode} on port ${port}`,
      async () => {
        if (proc.child.exitCode !== null) return false;
        return /listening on port|running on port/i.test(proc.output()) && (await portOpen(port))
          ? true
          : undefined;
      },
      WAIT_MS,
    );
    if (up) return listeningOn(proc, port);
    if (attempt >= 3) throw new Error(`server-everything ${mode} would not start: ${proc.output()}`);
  }
}

/** The modern HTTP fixture on a random port (it prints `LISTENING <port>`). */
export async function startModernHttp(stack: CleanupStack): Promise<SpawnedServer> {
  const proc = spawnTracked(stack, process.execPath, [SERVERS.modernHttp], { ...process.env, PORT: '0' });
  const port = await waitFor(`modern-http-server to listen (${proc.output()})`, () => {
    const m = /LISTENING (\d+)/.exec(proc.output());
    return m ? Number(m[1]) : undefined;
  });
  return listeningOn(proc, port);
}

/** A recording HTTP proxy in front of a server: every request's headers, in order. */
export interface HeaderRecorder {
  origin: string;
  requests: { method: string; url: string; headers: IncomingHttpHeaders }[];
}

/**
 * Forward every request to `target` (streaming both ways, so SSE works) and remember what
 * headers arrived. Used to prove custom headers really leave the host.
 */
export async function startHeaderRecorder(stack: CleanupStack, targetPort: number): Promise<HeaderRecorder> {
  const requests: HeaderRecorder['requests'] = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    const upstream = request(
      {
        host: '127.0.0.1',
        port: targetPort,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: `127.0.0.1:${targetPort}` },
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  stack.defer(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, requests };
}

/**
 * Every live process whose environment holds `marker` (Linux /proc). Children inherit the
 * environment, so a unique marker finds a server and everything it spawned, even after
 * re-parenting; this is how the tests prove nothing was orphaned.
 */
export function pidsWithEnv(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, 'utf8').includes(marker) && isAlive(pid)) found.push(pid);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/** Wait until every pid is dead; fails listing the survivors. */
export async function waitAllDead(pids: number[], timeoutMs = 10_000): Promise<void> {
  let alive: number[] = pids;
  try {
    await waitFor(
      'processes to exit',
      () => {
        alive = pids.filter((p) => isAlive(p));
        return alive.length === 0 ? true : undefined;
      },
      timeoutMs,
    );
  } catch {
    for (const p of alive) {
      try {
        process.kill(p, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    assert.fail(`processes still alive: ${alive.join(', ')}`);
  }
}
