import { mkdirSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  isDirectory,
  isWithin,
  packageTreeOf,
  pathsInArgument,
  prefixOf,
  realOrUndefined,
  resolveOnPath,
  shebangInterpreter,
} from './sandbox-paths.js';

/**
 * What one sandboxed server may see, independent of the tool that enforces it. Every path
 * is a host path mounted (or allowed) at the same path inside, so the server's own view of
 * its roots, arguments and cwd is unchanged.
 */
export interface SandboxLayout {
  /** System directories (read-only); on Linux a symlinked one is recreated as a symlink. */
  system: string[];
  /** Read-only: the runtime's install prefix, the server's package tree, its cwd, path arguments. */
  readOnly: string[];
  /** Read-write: the shared folders (roots) and, for npx/npm, npm's cache. */
  readWrite: string[];
  /** Home directories replaced by an empty private tmpfs (Linux; denied anyway on macOS). */
  hidden: string[];
  /** Whether /tmp is private (false only when a shared folder covers /tmp itself). */
  privateTmp: boolean;
  /** Where the server starts: its cwd when visible inside, else `/`. */
  cwd: string;
  /** How many shared folders are mounted read-write. */
  roots: number;
  /** Roots that could not be mounted, with the reason (for the server's log). */
  skipped: string[];
  /** A dry run: /tmp is this host folder (the only writable place), and hidden homes are read-only. */
  dryRunTmp?: string;
}

/** Everything a layout depends on; the host passes the real values, tests their own. */
export interface LayoutInput {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** The current roots, as file:// URIs. */
  roots: string[];
  /** System directories that exist on this machine (see linux-system-dirs / the macOS list). */
  system: string[];
  /** The host user's home (hidden too when the server's HOME points elsewhere). */
  hostHome: string;
  /** The host's cwd: a server without a configured cwd starts there. */
  hostCwd: string;
  /**
   * A dry run (see dry-run/): no roots are shared, npm's cache is read-only, and the only
   * writable place is this host folder, mounted as /tmp.
   */
  dryRunTmp?: string;
  /** Other programs that run inside besides the command (the network forwarder's Node). */
  alsoRuns?: string[];
}

/** Package runners that keep what they download in npm's cache. */
const NPM_RUNNERS = /^(npx|npm|pnpm|pnpx|yarn)(\.cmd)?$/;

/** Work out the mounts for one launch. Creates npm's cache directory when npx needs it. */
export function sandboxLayout(input: LayoutInput): SandboxLayout {
  const homes = unique(
    [input.env.HOME, input.hostHome].filter((h): h is string => !!h && isAbsolute(h)).flatMap(bothForms),
  );
  // Binding a home, or anything above one, would put the person's files back in view.
  const tooBroad = (p: string) => p === '/' || homes.some((h) => isWithin(h, p));
  // ~/.local or ~/.config as an install prefix would expose their data (keyrings, tokens).
  const dotDirOfHome = (p: string) => homes.some((h) => dirname(p) === h && basename(p).startsWith('.'));
  const readOnly: string[] = [];
  const addPrefix = (exe: string) => {
    const prefix = prefixOf(exe);
    readOnly.push(tooBroad(prefix) || dotDirOfHome(prefix) ? dirname(exe) : prefix);
  };
  const addPathArgument = (p: string) => {
    const real = realOrUndefined(p);
    if (!real) return;
    const tree = packageTreeOf(real, tooBroad);
    if (tree) readOnly.push(tree);
    else if (isDirectory(real)) readOnly.push(tooBroad(real) ? '' : real);
    else readOnly.push(tooBroad(dirname(real)) ? real : dirname(real));
    // A path given through a symlink must resolve inside too.
    if (real !== p && !tooBroad(p)) readOnly.push(p);
  };

  const resolved = resolveOnPath(input.command, input.env.PATH);
  if (resolved) {
    addPrefix(resolved);
    const real = realOrUndefined(resolved) ?? resolved;
    if (real !== resolved) {
      addPrefix(real);
      addPathArgument(real);
    }
    // `npx` is a `#!/usr/bin/env node` script: node must be reachable too.
    const interpreter = shebangInterpreter(real);
    const interpreterPath = interpreter ? resolveOnPath(interpreter, input.env.PATH) : undefined;
    if (interpreterPath) {
      addPrefix(interpreterPath);
      const realInterpreter = realOrUndefined(interpreterPath);
      if (realInterpreter && realInterpreter !== interpreterPath) addPrefix(realInterpreter);
    }
  }
  for (const arg of input.args) for (const p of pathsInArgument(arg)) addPathArgument(p);
  for (const exe of input.alsoRuns ?? []) {
    addPrefix(exe);
    const real = realOrUndefined(exe);
    if (real && real !== exe) addPrefix(real);
  }
  const cwd = realOrUndefined(input.cwd ?? input.hostCwd);
  if (cwd && !tooBroad(cwd)) readOnly.push(cwd);

  const readWrite: string[] = [];
  const skipped: string[] = [];
  let roots = 0;
  for (const uri of input.dryRunTmp ? [] : input.roots) {
    let path: string;
    try {
      path = fileURLToPath(uri);
    } catch {
      skipped.push(`${uri} (not a local file:// URI)`);
      continue;
    }
    const real = realOrUndefined(path);
    if (!real) {
      skipped.push(`${path} (does not exist)`);
      continue;
    }
    readWrite.push(...bothForms(path));
    roots++;
  }
  if (NPM_RUNNERS.test(basename(input.command))) {
    const cache = input.env.npm_config_cache ?? join(input.env.HOME ?? input.hostHome, '.npm');
    try {
      mkdirSync(cache, { recursive: true });
      // A dry run may use what is cached, never change it.
      if (input.dryRunTmp) readOnly.push(...bothForms(cache));
      else readWrite.push(...bothForms(cache));
    } catch {
      // npx then fails with its own message about the cache, which the log shows.
    }
  }

  const rw = unique(readWrite);
  const covered = (p: string, by: string[]) => by.some((q) => isWithin(p, q));
  const ro = unique(readOnly.filter(Boolean)).filter((p) => !covered(p, input.system) && !covered(p, rw));
  // Keep only the top-most of nested read-only paths: the deeper ones add nothing.
  const topRo = ro.filter((p) => !ro.some((q) => q !== p && isWithin(p, q)));
  // A home the person shared as a root stays visible: they drew that boundary themselves.
  const hidden = homes.filter((h) => !covered(h, rw));
  const privateTmp = !rw.some((r) => isWithin('/tmp', r));
  const visible = [...input.system, ...topRo, ...rw, ...hidden, ...(privateTmp ? ['/tmp'] : [])];
  return {
    system: input.system,
    readOnly: topRo,
    readWrite: rw,
    hidden,
    privateTmp,
    cwd: cwd && covered(cwd, visible) ? cwd : '/',
    roots,
    skipped,
    ...(input.dryRunTmp ? { dryRunTmp: input.dryRunTmp } : {}),
  };
}

/** A path as given and as resolved, when they differ (a symlinked /tmp on macOS, say). */
function bothForms(path: string): string[] {
  const real = realOrUndefined(path);
  return real && real !== path ? [real, path] : [path];
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
