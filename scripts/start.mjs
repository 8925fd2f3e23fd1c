#!/usr/bin/env node
// `npm start`: builds, then runs the desktop app when an Electron binary is installed, and
// browser mode (`node out/headless/cli.mjs browser`) when not: Electron's binary comes from a
// CDN at install time, and machines that cannot reach it (CI here) still get a working UI.
// Extra arguments (`npm start -- --port 4000`) are passed on to whichever one runs.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDependencies } from './ensure-deps.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const extraArgs = process.argv.slice(2);

/** Path of the installed Electron binary, or why there is none. */
function findElectron() {
  try {
    // electron@41's index.js returns the binary path from path.txt and throws when the
    // postinstall download never ran. (From electron 42 on, requiring it downloads the binary
    // instead; revisit this on upgrade.)
    const binary = createRequire(import.meta.url)('electron');
    if (typeof binary === 'string' && existsSync(binary)) return { binary };
    return { reason: 'no Electron binary is available (node_modules/electron points at a missing file)' };
  } catch {
    return { reason: 'no Electron binary is available (its download at install time was skipped)' };
  }
}

function hasDisplay() {
  return process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

/** Runs a child with our terminal and exits with its status. */
function runAndExit(command, args) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
  // Ctrl+C reaches the child through the terminal; keep this process alive until it exits.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

ensureDependencies(root);
const electron = findElectron();
const noDesktop =
  electron.reason ??
  (hasDisplay() ? undefined : 'no display is available (DISPLAY and WAYLAND_DISPLAY are unset)');
const buildArgs = [path.join(root, 'scripts', 'build.mjs'), ...(noDesktop ? ['--headless-only'] : [])];
if (spawnSync(process.execPath, buildArgs, { cwd: root, stdio: 'inherit' }).status !== 0) process.exit(1);

if (!noDesktop && existsSync(path.join(root, 'out', 'main', 'index.cjs'))) {
  // The project folder, not the bundle, so Electron reads package.json (name, version, and
  // `main`: out/main/index.cjs). Chromium refuses to run as root without --no-sandbox.
  const rootArgs = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
  runAndExit(electron.binary, [root, ...rootArgs, ...extraArgs]);
} else {
  console.log(`start: ${noDesktop ?? 'out/main/index.cjs was not built'}; starting browser mode instead.`);
  const cli = path.join(root, 'out', 'headless', 'cli.mjs');
  if (!existsSync(cli)) {
    console.error('start: out/headless/cli.mjs was not built (electron/headless/cli.ts is missing?)');
    process.exit(1);
  }
  runAndExit(process.execPath, [cli, 'browser', ...extraArgs]);
}
