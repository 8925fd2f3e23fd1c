/**
 * Tool-call latency benchmark: one run, one server (server-everything over stdio, `echo`),
 * three ways of calling it, interleaved in rounds so machine noise hits all three alike:
 *   raw    — a bare SDK v2 Client (the physical floor for this server and transport)
 *   host   — the MCP Desk host core (McpHost.callTool: state checks, trace, catalog lookup)
 *   bridge — the same call made by a WebSocket client through browser mode's bridge
 * The last line is JSON with the ratios the foundation issue sets goals for
 * (host_over_raw_p50 <= 1.25, bridge_minus_raw_p50_ms <= 1). No timing is asserted.
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { startBridge } from '../../electron/headless/bridge-server.js';
import { composeHost } from '../../electron/host/compose.js';
import { MemoryConfigStore } from '../../electron/host/config/config-store.js';

const everything = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const PER_ROUND = Number(process.env.BENCH_CALLS ?? 100);
const WARMUP = 50;

function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

async function time(fn: () => Promise<unknown>, n: number, into: number[]): Promise<void> {
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    into.push(performance.now() - t);
  }
}

async function main(): Promise<void> {
  // raw SDK client
  const raw = new Client({ name: 'bench-raw', version: '1.0.0' });
  await raw.connect(
    new StdioClientTransport({ command: process.execPath, args: [everything, 'stdio'], stderr: 'ignore' }),
  );
  const rawCall = () => raw.callTool({ name: 'echo', arguments: { message: 'bench' } });

  // host core
  const services = await composeHost({ configPath: '(memory)', store: new MemoryConfigStore(), mode: 'cli' });
  await services.host.init();
  await services.host.add('everything', { command: process.execPath, args: [everything, 'stdio'] });
  const [state] = await services.host.whenSettled(30_000);
  if (state?.state.kind !== 'connected')
    throw new Error(`host could not connect: ${JSON.stringify(state?.state)}`);
  const hostCall = () => services.host.callTool('everything', 'echo', { message: 'bench' });

  // bridge: a WebSocket client speaking the contract, as the browser renderer does
  const bridge = await startBridge({ router: services.router, events: services.events });
  const origin = `http://127.0.0.1:${bridge.port}`;
  const ws = new WebSocket(`ws://127.0.0.1:${bridge.port}/bridge?token=${bridge.token}`, { origin });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const pending = new Map<number, (ok: boolean) => void>();
  ws.on('message', (data) => {
    const frame = JSON.parse((data as Buffer).toString('utf8')) as {
      type: string;
      id?: number;
      ok?: boolean;
    };
    if (frame.type === 'result' && frame.id !== undefined) pending.get(frame.id)?.(frame.ok === true);
  });
  let nextId = 0;
  const bridgeCall = () =>
    new Promise<void>((resolve, reject) => {
      const id = ++nextId;
      pending.set(id, (ok) => {
        pending.delete(id);
        if (ok) resolve();
        else reject(new Error('bridge call failed'));
      });
      ws.send(
        JSON.stringify({
          type: 'invoke',
          id,
          channel: 'tools.call',
          payload: { serverId: 'everything', tool: 'echo', args: { message: 'bench' }, callId: `b${id}` },
        }),
      );
    });

  for (const f of [rawCall, hostCall, bridgeCall]) await time(f, WARMUP, []);
  const samples = { raw: [] as number[], host: [] as number[], bridge: [] as number[] };
  for (let r = 0; r < ROUNDS; r++) {
    await time(rawCall, PER_ROUND, samples.raw);
    await time(hostCall, PER_ROUND, samples.host);
    await time(bridgeCall, PER_ROUND, samples.bridge);
  }

  ws.close();
  await bridge.close();
  await services.dispose();
  await raw.close();

  const p50 = {
    raw: percentile(samples.raw, 50),
    host: percentile(samples.host, 50),
    bridge: percentile(samples.bridge, 50),
  };
  const p95 = {
    raw: percentile(samples.raw, 95),
    host: percentile(samples.host, 95),
    bridge: percentile(samples.bridge, 95),
  };
  for (const k of ['raw', 'host', 'bridge'] as const) {
    console.log(
      `${k.padEnd(6)} p50 ${p50[k].toFixed(3)} ms   p95 ${p95[k].toFixed(3)} ms   (${samples[k].length} calls)`,
    );
  }
  console.log(
    JSON.stringify({
      host_over_raw_p50: Number((p50.host / p50.raw).toFixed(3)),
      bridge_minus_raw_p50_ms: Number((p50.bridge - p50.raw).toFixed(3)),
      raw_p50_ms: Number(p50.raw.toFixed(3)),
      host_p50_ms: Number(p50.host.toFixed(3)),
      bridge_p50_ms: Number(p50.bridge.toFixed(3)),
      calls_per_mode: ROUNDS * PER_ROUND,
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
