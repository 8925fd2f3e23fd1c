/**
 * How long a one-shot CLI command takes to exit once its output is complete: the time from the
 * last byte on stdout to the process's exit, against server-everything over stdio. The median
 * of a few runs, after one warm-up run (which also caches the server's era verdict, as a
 * person's second command would find it). Goal: cli_exit_after_output_ms <= 250.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const builtCli = fileURLToPath(new URL('../../out/headless/cli.mjs', import.meta.url));
const sourceCli = fileURLToPath(new URL('../../electron/headless/cli.ts', import.meta.url));

/** Milliseconds from the output's last byte to exit, for one `tools` run. */
function oneRun(config: string, dataDir: string): Promise<number> {
  // The built CLI is what people run; from source (tsx) only when nothing is built yet.
  const entry = existsSync(builtCli) ? [builtCli] : ['--import', 'tsx', sourceCli];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...entry, '--config', config, 'tools'], {
      env: { ...process.env, MCP_DESK_DATA_DIR: dataDir, NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let lastByte = 0;
    let stderr = '';
    child.stdout.on('data', () => (lastByte = performance.now()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => {
      const exitedAt = performance.now();
      if (code !== 0 || lastByte === 0) reject(new Error(`mcp-desk tools exited ${code}: ${stderr}`));
      else resolve(exitedAt - lastByte);
    });
  });
}

/** Median exit-after-output time over `runs` one-shot runs of `mcp-desk tools`. */
export async function measureCliExit(
  everything: string,
  runs: number,
): Promise<{ medianMs: number; samples: number[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-desk-bench-cli-'));
  try {
    const config = join(dir, 'servers.json');
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } },
      }),
    );
    const dataDir = join(dir, 'data');
    await oneRun(config, dataDir);
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) samples.push(await oneRun(config, dataDir));
    const sorted = [...samples].sort((a, b) => a - b);
    return { medianMs: sorted[Math.floor(sorted.length / 2)], samples };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const everything = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);

/** cli_exit_after_output_ms (goal <= 250) over BENCH_CLI_RUNS runs (5 by default). */
export async function runCliExitBench(): Promise<Record<string, number>> {
  const { medianMs } = await measureCliExit(everything, Number(process.env.BENCH_CLI_RUNS ?? 5));
  return { cli_exit_after_output_ms: Math.round(medianMs) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await runCliExitBench()));
}
