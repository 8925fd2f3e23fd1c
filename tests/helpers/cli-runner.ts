import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { builtCli } from './browser-mode.js';
import { REPO_ROOT, tempDir, type CleanupStack } from './host-harness.js';

/** What one CLI run printed and how it exited. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Run the built `mcp-desk` (out/headless/cli.mjs, checked to be newer than its sources; see
 * builtCli) to completion, with extra environment; killed after `timeoutMs` so a hang fails the
 * test instead of stalling it.
 */
export function runCli(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<CliRun> {
  const cli = builtCli();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, NODE_OPTIONS: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A temp folder for CLI runs: the config file to pass as `--config` and the data folder. */
export interface CliWorkspace {
  dir: string;
  config: string;
  dataDir: string;
}

/** A temp folder (removed at cleanup) whose `servers.json` lists `servers`; the CLI creates `data/` itself. */
export async function cliWorkspace(
  stack: CleanupStack,
  servers: Record<string, unknown>,
): Promise<CliWorkspace> {
  const dir = await tempDir(stack);
  const config = join(dir, 'servers.json');
  await writeFile(config, JSON.stringify({ mcpServers: servers }));
  return { dir, config, dataDir: join(dir, 'data') };
}
