/**
 * Shared plumbing for the integration tests: a real host on a temp config file, waits on
 * real conditions instead of sleeps, server-everything over HTTP/SSE on a free port, and a
 * cleanup stack so no test leaves a process or a temp dir behind. Nothing here is a mock:
 * every server is a real process speaking real MCP.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { composeHost, type ComposeOptions, type HostServices } from '../../electron/host/compose.js';
import { toHostError } from '../../electron/host/util/errors.js';
import type { CallToolResult } from '../../shared/domain/mcp-types.js';
import type { HostError, ServerState, ServerSummary } from '../../shared/domain/server-state.js';
import type { CleanupStack } from './cleanup-stack.js';
import { nodeServer, SERVERS, startEverythingHttp } from './server-processes.js';
import { tempDir } from './temp-dir.js';
import { waitFor, WAIT_MS } from './wait.js';

// One import line for the integration tests: the helpers split into their own files.
export { CleanupStack } from './cleanup-stack.js';
export * from './server-processes.js';
export { tempDir } from './temp-dir.js';
export * from './wait.js';

/** Reconnects fast enough for a test, still exercising real backoff. */
export const TEST_BACKOFF = { baseMs: 100, maxMs: 500, maxAttempts: 4 };

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
  /** The stdio era probe's cap (the late-answer tests use a short one; default the product's). */
  stdioProbeMs?: number;
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
  /** The hosts imports read and their home folder (see ComposeOptions.imports). */
  imports?: ComposeOptions['imports'];
  /** The app's error log (logs/ in the data folder); its Redactor becomes the host's. */
  log?: ComposeOptions['log'];
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
    ...(opts.stdioProbeMs !== undefined ? { stdioProbeMs: opts.stdioProbeMs } : {}),
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
    ...(opts.imports ? { imports: opts.imports } : {}),
    ...(opts.log ? { log: opts.log } : {}),
    ...(opts.dataDir ? { dataDir: opts.dataDir === true ? join(dir, 'data') : opts.dataDir } : {}),
  });
  if (opts.maxTurns !== undefined) await services.settings.update({ maxTurns: opts.maxTurns });
  stack.defer(() => services.dispose());
  if (opts.init !== false) await services.host.init();
  return { ...services, dir, configPath };
}

/** A host holding only the modern fixture as `modern`, connected in the 2026-07-28 era (a 2025 fallback fails). */
export async function createModernHost(stack: CleanupStack, opts: TestHostOptions = {}): Promise<TestHost> {
  const t = await createTestHost(stack, { ...opts, servers: { modern: nodeServer(SERVERS.modern) } });
  assert.equal(connectedInfo(await waitForState(t.host, 'modern', 'connected')).protocolEra, 'modern');
  return t;
}

/** Add server-everything as `id` over stdio or Streamable HTTP (started here), and wait until it connects. */
export async function addEverything(
  stack: CleanupStack,
  t: TestHost,
  id: string,
  transport: 'stdio' | 'http',
): Promise<void> {
  const config =
    transport === 'stdio'
      ? nodeServer(SERVERS.everything)
      : { url: `${(await startEverythingHttp(stack, 'streamableHttp')).origin}/mcp` };
  await t.host.add(id, config as Parameters<TestHost['host']['add']>[1]);
  await waitForState(t.host, id, 'connected');
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
