import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  openSync,
  readSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join, sep } from 'node:path';

/** Path helpers for the sandbox layout; every one tolerates paths that do not exist. */

/** `child` equals `parent` or lies below it. */
export function isWithin(child: string, parent: string): boolean {
  if (child === parent) return true;
  const base = parent.endsWith(sep) ? parent : parent + sep;
  return child.startsWith(base);
}

/** How deep a path is (`/` is 0): mounts go shallow first so a deeper one lands on top. */
export function depthOf(path: string): number {
  return path.split(sep).filter(Boolean).length;
}

/** realpath, or undefined when the path does not exist (or cannot be read). */
export function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Where a command resolves on PATH (no realpath: a symlink's own directory matters too). */
export function resolveOnPath(command: string, pathVar: string | undefined): string | undefined {
  if (isAbsolute(command)) return existsSync(command) ? command : undefined;
  if (command.includes('/')) return undefined;
  for (const dir of (pathVar ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here; keep looking.
    }
  }
  return undefined;
}

/**
 * The install prefix of an executable: the parent of its `bin` directory (node needs
 * `lib/node_modules` beside `bin` for npx and npm), or its own directory otherwise.
 */
export function prefixOf(executable: string): string {
  const dir = dirname(executable);
  return basename(dir) === 'bin' ? dirname(dir) : dir;
}

/**
 * The top-most ancestor of `path` that holds `node_modules` or `package.json`: a script
 * inside a package imports from its own and its parents' node_modules, so the whole tree
 * must be visible. `stop` says which ancestors are off limits (home, `/`).
 */
export function packageTreeOf(path: string, stop: (dir: string) => boolean): string | undefined {
  let found: string | undefined;
  for (let dir = isDirectory(path) ? path : dirname(path); !stop(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules')) || existsSync(join(dir, 'package.json'))) found = dir;
    if (dirname(dir) === dir) break;
  }
  return found;
}

/** The interpreter a `#!` script names (`#!/usr/bin/env node` gives `node`). */
export function shebangInterpreter(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buf = Buffer.alloc(256);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const first = buf.subarray(0, n).toString('utf8').split('\n')[0] ?? '';
    if (!first.startsWith('#!')) return undefined;
    const words = first.slice(2).trim().split(/\s+/);
    if (words[0] && basename(words[0]) === 'env') return words.slice(1).find((w) => !w.startsWith('-'));
    return words[0];
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Absolute paths an argument mentions: `/x/y` or `--flag=/x/y`. */
export function pathsInArgument(arg: string): string[] {
  const value = arg.startsWith('-') && arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : arg;
  return isAbsolute(value) ? [value] : [];
}
