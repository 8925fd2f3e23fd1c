/**
 * Shared plumbing for the integration tests: a real host on a temp config file, waits on
 * real conditions instead of sleeps, server-everything over HTTP/SSE on a free port, and a
 * cleanup stack so no test leaves a process or a temp dir behind. Nothing here is a mock:
 * every server is a real process speaking real MCP.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { composeHost, type ComposeOptions, type HostServices } from '../../electron/host/compose.js';
import { isAlive } from '../../electron/host/connection/process-tree.js';
import { toHostError } from '../../electron/host/util/errors.js';
import type { CallToolResult } from '../../shared/domain/mcp-types.js';
import type { HostError, ServerState, ServerSummary } from '../../shared/domain/server-state.js';

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

/** Generous on purpose: CI machines have two cores and run two test files at once. */
export const WAIT_MS = 30_000;

/** Reconnects fast enough for a test, still exercising real backoff. */
export const TEST_BACKOFF = { baseMs: 100, maxMs: 500, maxAttempts: 4 };

type CleanupFn = () => Promise<void> | void;

/**
 * A LIFO list of cleanups. Register `after(() => stack.run())` once per file (or
 * `t.after(...)` per test); every helper below pushes its own teardown onto it.
 */
export class CleanupStack {
  private readonly fns: CleanupFn[] = [];

  defer(fn: CleanupFn): void {
    this.fns.push(fn);
  }

  /** Run every cleanup, newest first; one failing cleanup never skips the others. */
  async run(): Promise<void> {
    const errors: unknown[] = [];
    while (this.fns.length) {
      const fn = this.fns.pop()!;
      try {
        await fn();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length) throw errors[0];
  }
}

// Last resort: if the runner kills a file mid-test, `after` never runs; SIGKILL what we spawned.
const spawned = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of spawned)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** A temp directory removed at cleanup. */
export async function tempDir(stack: CleanupStack, prefix = 'mcp-desk-it-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  stack.defer(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A host plus where its files live. */
export interface TestHost extends HostServices {
  dir: string;
  configPath: string;
}

export interface TestHostOptions {
  /** The `mcpServers` map written to the config file before the host loads it. */
  servers?: Record<string, unknown>;
  /** Extra top-level keys for the config file (round-trip checks). */
  rest?: Record<string, unknown>;
  /** Persist era verdicts to this file, or to `<dir>/era-verdicts.json` with `true` (default: in memory). */
  eraCache?: string | true;
  env?: NodeJS.ProcessEnv;
  handlers?: ComposeOptions['handlers'];
  /** Call host.init() (default true). */
  init?: boolean;
  /** Point the chat providers somewhere (the fake Gemini) with a key. */
  providerOverrides?: ComposeOptions['providerOverrides'];
  /** Chat settings to start from (in memory). */
  maxTurns?: number;
  /** Where accepted URL elicitations go (a recorder in tests). */
  openExternal?: ComposeOptions['openExternal'];
  /** Keep data (settings, conversations, audit) on disk here, or in `<dir>/data` with `true` (default: in memory). */
  dataDir?: string | true;
  /** Sampling limits (rate limit, review timeout). */
  sampling?: ComposeOptions['sampling'];
  /** Initial roots (absolute paths or file:// URIs). */
  roots?: ComposeOptions['roots'];
  /** The desktop shell (folder picker, main window); absent as in browser mode and the CLI. */
  shell?: ComposeOptions['shell']; /** Where secrets live (a MemorySecretStore in tests; default: the OS keychain). */
  secretStore?: ComposeOptions['secretStore'];
}

/** Compose a real host on a temp config file; disposed (process trees included) at cleanup. */
export async function createTestHost(stack: CleanupStack, opts: TestHostOptions = {}): Promise<TestHost> {
  const dir = await tempDir(stack);
  const configPath = join(dir, 'mcp-servers.json');
  if (opts.servers)
    await writeFile(configPath, `${JSON.stringify({ ...opts.rest, mcpServers: opts.servers }, null, 2)}\n`);
  const services = await composeHost({
    configPath,
    mode: 'cli',
    backoff: TEST_BACKOFF,
    ...(opts.eraCache
      ? { eraCachePath: opts.eraCache === true ? join(dir, 'era-verdicts.json') : opts.eraCache }
      : {}),
    ...(opts.env ? { env: opts.env } : {}),
    ...(opts.handlers ? { handlers: opts.handlers } : {}),
    ...(opts.providerOverrides ? { providerOverrides: opts.providerOverrides } : {}),
    ...(opts.openExternal ? { openExternal: opts.openExternal } : {}),
    ...(opts.sampling ? { sampling: opts.sampling } : {}),
    ...(opts.roots ? { roots: opts.roots } : {}),
    ...(opts.shell ? { shell: opts.shell } : {}),
    ...(opts.secretStore ? { secretStore: opts.secretStore } : {}),
    ...(opts.dataDir ? { dataDir: opts.dataDir === true ? join(dir, 'data') : opts.dataDir } : {}),
  });
  if (opts.maxTurns !== undefined) await services.settings.update({ maxTurns: opts.maxTurns });
  stack.defer(() => services.dispose());
  if (opts.init !== false) await services.host.init();
  return { ...services, dir, configPath };
}

/** Poll until `probe` returns something other than undefined; the error names `what`. */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = WAIT_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await delay(25);
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

type StateKind = ServerState['kind'];

/** A server's summary, or a failed assertion when the host does not know it. */
export function summaryOf(host: HostServices['host'], id: string): ServerSummary {
  const s = host.list().find((x) => x.id === id);
  assert.ok(s, `host has no server "${id}"`);
  return s;
}

/**
 * Wait until server `id` is in state `kind`. Settling in a different terminal state fails
 * at once with that state, instead of waiting out the timeout.
 */
export async function waitForState(
  host: HostServices['host'],
  id: string,
  kind: StateKind,
  timeoutMs = WAIT_MS,
): Promise<ServerSummary> {
  let last: ServerSummary | undefined;
  try {
    return await waitFor(
      `server "${id}" to be ${kind}`,
      () => {
        last = summaryOf(host, id);
        if (last.state.kind === kind) return last;
        if (kind === 'connected' && last.state.kind === 'failed') {
          throw new Error(`server "${id}" failed instead of connecting: ${last.state.error.message}`);
        }
        return undefined;
      },
      timeoutMs,
    );
  } catch (error) {
    if (last && error instanceof Error && error.message.startsWith('timed out')) {
      error.message += `; last state: ${JSON.stringify(last.state)}`;
    }
    throw error;
  }
}

/** The narrowed `connected` state of a server (fails the test otherwise). */
export function connectedInfo(summary: ServerSummary): Extract<ServerState, { kind: 'connected' }>['info'] {
  assert.equal(summary.state.kind, 'connected', `expected connected, got ${JSON.stringify(summary.state)}`);
  return summary.state.info;
}

/** The narrowed error of a `failed` server (fails the test otherwise). */
export function failedError(summary: ServerSummary): HostError {
  assert.equal(summary.state.kind, 'failed', `expected failed, got ${JSON.stringify(summary.state)}`);
  return summary.state.error;
}

/** Records every state kind each server passes through, from `servers.changed` events. */
export function recordStates(services: HostServices, stack: CleanupStack): Map<string, StateKind[]> {
  const seen = new Map<string, StateKind[]>();
  const off = services.events.on('servers.changed', (list) => {
    for (const s of list) {
      const kinds = seen.get(s.id) ?? [];
      if (kinds[kinds.length - 1] !== s.state.kind) kinds.push(s.state.kind);
      seen.set(s.id, kinds);
    }
  });
  stack.defer(off);
  return seen;
}

/** The text of every text block of a tool result, joined. */
export function textOf(result: CallToolResult): string {
  return result.content
    .map((b) => (b.type === 'text' ? b.text : ''))
    .filter(Boolean)
    .join('\n');
}

/** Await a promise that must reject, and return the host error it maps to. */
export async function rejection(promise: Promise<unknown>): Promise<HostError> {
  try {
    await promise;
  } catch (error) {
    return toHostError(error);
  }
  assert.fail('expected the promise to reject, but it resolved');
}

/** A stdio config running a Node script with this Node binary. */
export function nodeServer(
  script: string,
  args: string[] = [],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { command: process.execPath, args: [script, ...args], ...extra };
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
    if (up)
      return {
        child: proc.child,
        port,
        origin: `http://127.0.0.1:${port}`,
        output: proc.output,
        stop: proc.stop,
      };
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
  return {
    child: proc.child,
    port,
    origin: `http://127.0.0.1:${port}`,
    output: proc.output,
    stop: proc.stop,
  };
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
