import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (tests/helpers/ is two levels down). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The built plain-Node entry; `node scripts/build.mjs` makes it. */
export const headlessCli = join(repoRoot, 'out', 'headless', 'cli.mjs');

/** What a bundle is built from: code, styles, markup (a tsconfig or a README is not). */
const BUILT_FROM = /\.(?:ts|tsx|mts|cts|js|mjs|cjs|jsx|css|html|svg)$/;

/** The newest source file under `folders` (repo-relative), as [mtime in ms, path]. */
function newestSource(folders: readonly string[]): [number, string] {
  let newest: [number, string] = [0, ''];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && BUILT_FROM.test(entry.name)) {
        const mtime = statSync(full).mtimeMs;
        if (mtime > newest[0]) newest = [mtime, full];
      }
    }
  };
  for (const folder of folders) walk(join(repoRoot, folder));
  return newest;
}

const checkedBuilds = new Set<string>();

/**
 * Throws unless `built` exists and is newer than every file under `sources`: a test of an old
 * build would pass or fail for code that is no longer there. Checked once per process.
 */
function requireFreshBuild(built: string, sources: readonly string[]): void {
  if (checkedBuilds.has(built)) return;
  if (!existsSync(built)) {
    throw new Error(`${built} is missing: run \`node scripts/build.mjs\` first (npm test does)`);
  }
  const [mtime, newest] = newestSource(sources);
  if (mtime > statSync(built).mtimeMs) {
    throw new Error(`${built} is older than ${newest}: run \`node scripts/build.mjs\` again`);
  }
  checkedBuilds.add(built);
}

/**
 * The built CLI and browser-mode entry, once checked to be newer than its sources. Tests run the
 * build, not the sources under tsx: it is what `mcp-desk` runs, and it starts in about a third of
 * the CPU time (tsx resolves and loads some 300 modules through its loader on every start).
 */
export function builtCli(): string {
  requireFreshBuild(headlessCli, ['shared', 'electron/host', 'electron/headless']);
  return headlessCli;
}

/** A running `mcp-desk browser` process. */
export interface BrowserMode {
  /** The page URL with `#token=...`, exactly as the CLI printed it. */
  url: string;
  /** The config file the host reads and writes. */
  configPath: string;
  /** Everything the process printed so far (for failure messages). */
  output(): string;
  /** Stop the host (SIGTERM, then SIGKILL after a grace period) and wait for it to exit. */
  stop(): Promise<void>;
}

export interface BrowserModeOptions {
  /** The initial config document; default `{"mcpServers":{}}`. */
  config?: unknown;
  /** Reuse this config file instead of writing a new one (to restart over the same state). */
  configPath?: string;
  /**
   * How long a start may take before it counts as hung (default 60 s; the URL is used the moment
   * it is printed). On a loaded 2-core machine a healthy start has taken over 20 s.
   */
  startTimeoutMs?: number;
  /** Extra environment for the host (a throwaway HOME for the import tests). */
  env?: NodeJS.ProcessEnv;
  /** Run this `mcp-desk` (an installed package's bin) from `cwd`, instead of the repository's build. */
  installed?: { cli: string; cwd: string };
}

const URL_LINE = /^MCP Desk browser mode: (http:\/\/127\.0\.0\.1:\d+\/#token=\S+)$/m;

/**
 * Start browser mode as a child process on a free port, with its config and data folder
 * in a fresh temp dir so a test never touches the person's real servers.
 */
export async function startBrowserMode(options: BrowserModeOptions = {}): Promise<BrowserMode> {
  const cli = options.installed?.cli ?? builtCli();
  if (!options.installed) requireFreshBuild(join(repoRoot, 'out', 'renderer', 'index.html'), ['renderer']);
  const dir = mkdtempSync(join(tmpdir(), 'mcp-desk-e2e-'));
  const configPath = options.configPath ?? join(dir, 'mcp-servers.json');
  if (!options.configPath)
    writeFileSync(configPath, JSON.stringify(options.config ?? { mcpServers: {} }, null, 2));

  const child = spawn(
    process.execPath,
    [cli, 'browser', '--config', configPath, '--port', '0', '--no-open'],
    {
      cwd: options.installed?.cwd ?? repoRoot,
      env: { ...process.env, MCP_DESK_DATA_DIR: join(dir, 'data'), ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let text = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => (text += chunk));
  child.stderr.on('data', (chunk: string) => (text += chunk));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  // If the test process itself dies (a crash, an interrupted run), take the host with it:
  // an orphaned host would keep its MCP servers running too.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  void exited.then(() => process.off('exit', killOnExit));

  const cleanup = () => {
    if (!options.configPath) rmSync(dir, { recursive: true, force: true });
  };

  try {
    const url = await waitForUrl(child, () => text, options.startTimeoutMs ?? 60_000);
    return {
      url,
      configPath,
      output: () => text,
      async stop() {
        await stopProcess(child, exited);
        cleanup();
      },
    };
  } catch (error) {
    await stopProcess(child, exited);
    cleanup();
    throw error;
  }
}

function waitForUrl(child: ChildProcess, output: () => string, timeoutMs: number): Promise<string> {
  return new Promise((resolveUrl, reject) => {
    const check = () => {
      const m = URL_LINE.exec(output());
      if (m) {
        finish();
        resolveUrl(m[1]);
      }
    };
    const onExit = (code: number | null) => {
      finish();
      reject(new Error(`browser mode exited (code ${code}) before printing its URL:\n${output()}`));
    };
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`browser mode printed no URL within ${timeoutMs} ms:\n${output()}`));
    }, timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      child.stdout?.off('data', check);
      child.off('exit', onExit);
    };
    child.stdout?.on('data', check);
    child.once('exit', onExit);
    check();
  });
}

async function stopProcess(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(killer);
}
