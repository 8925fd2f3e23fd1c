/**
 * The host the tool-call benchmarks measure: set up as the desktop app runs it (a data folder
 * on disk, so the audit log is written), with server-everything over stdio, and taken down
 * again whatever the benchmark did.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { composeHost, type HostServices } from '../../electron/host/compose.js';
import { MemoryConfigStore } from '../../electron/host/config/config-store.js';

/** server-everything's entry point, run with `stdio`. */
export const EVERYTHING_SERVER = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);

/**
 * A deliberately slowed host for the test of `npm run bench -- --check` (tests/bench/bench-check.test.ts):
 * every tool call waits this many ms first. Read here, in the bench's own harness, so no test
 * hook ships in the product.
 */
const SLOW_HOST_MS = Number(process.env.BENCH_SLOW_HOST_MS ?? 0);

/** The host as the bench sees it: itself, or (BENCH_SLOW_HOST_MS) a copy whose calls wait first. */
function benchView(host: HostServices['host']): HostServices['host'] {
  if (!(SLOW_HOST_MS > 0)) return host;
  const slowed = Object.create(host) as HostServices['host'];
  slowed.callTool = async (...args) => {
    await new Promise((resolve) => setTimeout(resolve, SLOW_HOST_MS));
    return host.callTool(...args);
  };
  return slowed;
}

/**
 * Run `body` on a host holding server-everything over stdio under each of `ids`, all connected
 * (a server that is not fails the benchmark); the host is disposed and its data folder removed after.
 */
export async function withBenchHost<T>(
  ids: string[],
  body: (host: HostServices['host']) => Promise<T>,
): Promise<T> {
  const dataDir = await mkdtemp(join(tmpdir(), 'mcp-desk-bench-'));
  const services = await composeHost({
    configPath: '(memory)',
    store: new MemoryConfigStore(),
    mode: 'cli',
    dataDir,
  });
  try {
    await services.host.init();
    for (const id of ids)
      await services.host.add(id, { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] });
    for (const s of await services.host.whenSettled(60_000))
      if (s.state.kind !== 'connected')
        throw new Error(`host could not connect ${s.id}: ${JSON.stringify(s.state)}`);
    return await body(benchView(services.host));
  } finally {
    await services.dispose();
    await rm(dataDir, { recursive: true, force: true });
  }
}
