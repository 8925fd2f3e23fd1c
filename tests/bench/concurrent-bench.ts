/**
 * Concurrency benchmark: wall time of 1,000 tool calls started at once, spread round-robin
 * over five stdio servers (server-everything, `echo`), made two ways in interleaved rounds:
 *   raw  — five bare SDK v2 clients (the floor for these servers and this transport)
 *   host — one MCP Desk host with the same five servers (McpHost.callTool)
 * Key: concurrent_1000_over_raw = the median of each round's host / raw wall time (goal <= 1.2).
 * BENCH_CONCURRENT_CALLS and BENCH_CONCURRENT_ROUNDS resize it. No timing is asserted.
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { EVERYTHING_SERVER, withBenchHost } from '../helpers/bench-host.js';

const SERVERS = 5;
const CALLS = Number(process.env.BENCH_CONCURRENT_CALLS ?? 1000);
// Rounds are cheap (well under a second each) and a 2-core machine's noise is not: enough of them
// that the median settles (7 rounds read anywhere from 1.27 to 1.62 on one quiet machine).
const ROUNDS = Number(process.env.BENCH_CONCURRENT_ROUNDS ?? 15);

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Wall time of `CALLS` calls started in the same tick, round-robin over the servers. */
async function wall(call: (server: number, i: number) => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await Promise.all(Array.from({ length: CALLS }, (_, i) => call(i % SERVERS, i)));
  return performance.now() - t;
}

/** Run the benchmark; returns its keys (and the raw numbers behind the ratio). */
export async function runConcurrentBench(): Promise<Record<string, number>> {
  const raws = await Promise.all(
    Array.from({ length: SERVERS }, async (_, i) => {
      const client = new Client({ name: `bench-raw-${i}`, version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [EVERYTHING_SERVER, 'stdio'],
          stderr: 'ignore',
        }),
      );
      return client;
    }),
  );
  const ids = Array.from({ length: SERVERS }, (_, i) => `e${i}`);
  try {
    return await withBenchHost(ids, async (desk) => {
      const raw = (server: number, i: number) =>
        raws[server].callTool({ name: 'echo', arguments: { message: `m${i}` } });
      const host = (server: number, i: number) => desk.callTool(`e${server}`, 'echo', { message: `m${i}` });
      // As the chat calls: each with a call id, so each can be cancelled (an AbortController and
      // the SDK's listener on its signal per call). Reported beside the key, without a goal.
      let round = 0;
      const cancellable = (server: number, i: number) =>
        desk.callTool(`e${server}`, 'echo', { message: `m${i}` }, { callId: `bench-${round}-${i}` });

      await wall(raw);
      await wall(host);
      const samples = { raw: [] as number[], host: [] as number[], cancellable: [] as number[] };
      for (let r = 0; r < ROUNDS; r++) {
        round = r;
        // Alternate who goes first, so a slow spell of the machine does not always hit one side.
        const order = r % 2 === 0 ? (['raw', 'host'] as const) : (['host', 'raw'] as const);
        for (const mode of order) samples[mode].push(await wall(mode === 'raw' ? raw : host));
        samples.cancellable.push(await wall(cancellable));
      }
      const rawMs = median(samples.raw);
      const hostMs = median(samples.host);
      // Each round's pair ran back to back, so its ratio cancels a slow spell of the machine
      // that a ratio of two medians (taken from different moments) would keep.
      const ratio = median(samples.host.map((h, r) => h / samples.raw[r]));
      return {
        concurrent_1000_over_raw: Number(ratio.toFixed(3)),
        concurrent_1000_cancellable_over_raw: Number(
          median(samples.cancellable.map((c, r) => c / samples.raw[r])).toFixed(3),
        ),
        concurrent_raw_ms: Number(rawMs.toFixed(1)),
        concurrent_host_ms: Number(hostMs.toFixed(1)),
        concurrent_calls: CALLS,
      };
    });
  } finally {
    await Promise.all(raws.map((c) => c.close()));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runConcurrentBench().then(
    (keys) => console.log(JSON.stringify(keys)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
