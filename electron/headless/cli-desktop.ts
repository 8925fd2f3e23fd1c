/**
 * `mcp-desk app` with no arguments: start the desktop app when an Electron binary is here, else
 * say in one line how to get one and offer browser mode, which needs none. Electron is a
 * development dependency (the installers bundle their own), so a package installed from npm
 * usually has none: MCP_DESK_ELECTRON names a binary, or an `electron` package that resolves.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Electron version the app is built and tested with (package.json's devDependency). */
export const ELECTRON_VERSION = '41.10.0';

/** The line printed when no Electron binary is found. */
export const NO_ELECTRON =
  `mcp-desk: the desktop app needs Electron, which is not installed here ` +
  `(npm install -g electron@${ELECTRON_VERSION}, or set MCP_DESK_ELECTRON to its binary; installers: ` +
  `https://github.com/mcp-desk/mcp-desk/releases); the same app runs in your browser without it: mcp-desk browser`;

/** The package's root: out/headless/cli.mjs sits two folders below it. */
export function packageRoot(moduleUrl: string): string {
  return join(dirname(fileURLToPath(moduleUrl)), '..', '..');
}

/**
 * The Electron binary to run, or undefined. The `electron` package exports its binary's path, and
 * throws when that binary was never downloaded (npm 11 runs no install script by default).
 */
export function findElectron(root: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const named = env.MCP_DESK_ELECTRON;
  if (named) return existsSync(named) ? named : undefined;
  try {
    const binary = createRequire(join(root, 'package.json'))('electron') as unknown;
    return typeof binary === 'string' && existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

/** Starts the desktop app on the package's built main process; resolves to its exit code. */
export function runDesktop(root: string, electron: string, argv: readonly string[] = []): Promise<number> {
  if (!existsSync(join(root, 'out', 'main', 'index.cjs')))
    return Promise.reject(
      new Error(`${join(root, 'out', 'main', 'index.cjs')} is missing: run npm run build`),
    );
  return new Promise((resolve, reject) => {
    const child = spawn(electron, [root, ...argv], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
