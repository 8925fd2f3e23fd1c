/**
 * Starting many servers at once: the wall time until 20 stdio server-everything servers are
 * connected with their tools, resources, resource templates and prompts listed, by the host
 * (composeHost, init, every server settled; era verdicts cached by a warm-up start, as a
 * person's second launch finds them) against 20 bare SDK clients doing the same connects and
 * lists in parallel. Rounds alternate raw and host and the medians are compared.
 * Goal: startup_20_over_raw <= 1.15. No timing is asserted.
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { composeHost } from '../../electron/host/compose.js';
import { parseDocument } from '../../electron/host/config/config-document.js';
import { MemoryConfigStore } from '../../electron/host/config/config-store.js';

const everything = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
const SERVERS = Number(process.env.BENCH_STARTUP_SERVERS ?? 20);
const ROUNDS = Number(process.env.BENCH_STARTUP_ROUNDS ?? 5);

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** What both sides must end up with, so neither wins by listing less. */
interface Counts {
  tools: number;
  resources: number;
  templates: number;
  prompts: number;
}

/** N bare SDK clients: spawn, connect, every list (all pages) in parallel; then closed. */
async function rawStart(n: number): Promise<{ ms: number; counts: Counts }> {
  const t0 = performance.now();
  const clients = await Promise.all(
    Array.from({ length: n }, async () => {
      // The capabilities the host declares: server-everything offers more tools to such a client.
      const client = new Client(
        { name: 'bench-raw', version: '1.0.0' },
        {
          capabilities: {
            elicitation: { form: {}, url: {} },
            sampling: { tools: {} },
            roots: { listChanged: true },
          },
        },
      );
      client.setRequestHandler('roots/list', () => ({ roots: [] }));
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [everything, 'stdio'],
          stderr: 'ignore',
        }),
      );
      const [tools, resources, templates, prompts] = await Promise.all([
        client.listTools(),
        client.listResources(),
        client.listResourceTemplates(),
        client.listPrompts(),
      ]);
      const counts: Counts = {
        tools: tools.tools.length,
        resources: resources.resources.length,
        templates: templates.resourceTemplates.length,
        prompts: prompts.prompts.length,
      };
      return { client, counts };
    }),
  );
  const ms = performance.now() - t0;
  await Promise.all(clients.map(({ client }) => killClient(client)));
  return { ms, counts: sum(clients.map((c) => c.counts)) };
}

/** The bare client's close waits 2 s per server before its SIGTERM: not what is measured, so kill now. */
async function killClient(client: Client): Promise<void> {
  const transport = client.transport as StdioClientTransport | undefined;
  const pid = transport?.pid;
  if (pid) process.kill(pid, 'SIGKILL');
  await client.close().catch(() => undefined);
}

/** The host: compose, start every configured server, wait until all are connected with their lists. */
async function hostStart(n: number, eraCachePath: string): Promise<{ ms: number; counts: Counts }> {
  const t0 = performance.now();
  const servers = Object.fromEntries(
    Array.from({ length: n }, (_, i) => [
      `everything-${i}`,
      { command: process.execPath, args: [everything, 'stdio'] },
    ]),
  );
  const services = await composeHost({
    configPath: '(memory)',
    store: new MemoryConfigStore(parseDocument(JSON.stringify({ mcpServers: servers }))),
    eraCachePath,
    mode: 'cli',
  });
  try {
    await services.host.init();
    const list = await services.host.whenSettled(60_000);
    const ms = performance.now() - t0;
    const down = list.filter((s) => s.state.kind !== 'connected');
    if (down.length) throw new Error(`not connected: ${JSON.stringify(down.map((s) => [s.id, s.state]))}`);
    const cat = services.host.catalog();
    return {
      ms,
      counts: {
        tools: cat.tools.length,
        resources: cat.resources.length,
        templates: cat.templates.length,
        prompts: cat.prompts.length,
      },
    };
  } finally {
    await services.dispose();
  }
}

function sum(all: Counts[]): Counts {
  return all.reduce(
    (a, c) => ({
      tools: a.tools + c.tools,
      resources: a.resources + c.resources,
      templates: a.templates + c.templates,
      prompts: a.prompts + c.prompts,
    }),
    { tools: 0, resources: 0, templates: 0, prompts: 0 },
  );
}

/** startup_20_over_raw and the medians behind it. */
export async function runStartupBench(): Promise<Record<string, number>> {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-desk-bench-startup-'));
  try {
    const eraCachePath = join(dir, 'era-verdicts.json');
    // Warm-up: caches the era verdict (one probe) and warms the disk cache for both sides.
    await hostStart(SERVERS, eraCachePath);
    await rawStart(SERVERS);
    const raw: number[] = [];
    const host: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const a = await rawStart(SERVERS);
      const b = await hostStart(SERVERS, eraCachePath);
      if (JSON.stringify(a.counts) !== JSON.stringify(b.counts))
        throw new Error(
          `the host listed ${JSON.stringify(b.counts)}, raw clients ${JSON.stringify(a.counts)}`,
        );
      raw.push(a.ms);
      host.push(b.ms);
    }
    return {
      startup_20_over_raw: Number((median(host) / median(raw)).toFixed(3)),
      startup_20_host_ms: Math.round(median(host)),
      startup_20_raw_ms: Math.round(median(raw)),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await runStartupBench()));
}
