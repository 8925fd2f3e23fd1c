import { lstatSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';
import type { DryRunAttempts, TriedConnection, TriedPath } from '../../../../shared/domain/dry-run.js';
import { isWithin } from './sandbox-paths.js';

/** At most this many paths and connections are reported (the rest is counted as truncated). */
const MAX_ITEMS = 100;
/** A trace file larger than this is read only this far (a server may loop on failing calls). */
const MAX_FILE_BYTES = 8 * 1024 * 1024;

/** What the sandbox exposed, for telling "hidden from it" from "does not exist anywhere". */
export interface TraceView {
  /** Every directory visible inside (system, read-only, read-write, /tmp, /dev, /proc). */
  visible: string[];
  /** The sandbox binary: its own setup calls, before it starts the server, are not the server's. */
  sandboxBinary: string;
}

/** One system call from a trace line. */
interface Call {
  name: string;
  args: string;
  /** The return value as printed (`-1`, `0`, `?`). */
  ret: string;
  errno?: string;
  /** A clone's child pid, translated to ours. */
  child?: number;
}

const LINE =
  /^(\w+)\((.*)\)\s+=\s+(-?\d+|\?|0x[0-9a-f]+)(?:\s+\/\*\s+(\d+) in strace's PID NS\s+\*\/)?(?:\s+([A-Z0-9_]+)\s+\(.*\))?/;
const FORKS = new Set(['clone', 'clone3', 'fork', 'vfork']);
const WRITE_CALLS =
  /^(creat|mkdir|mkdirat|rmdir|unlink|unlinkat|rename|renameat2?|link|linkat|symlink|symlinkat|truncate|chmod|fchmodat|chown|lchown|fchownat|utimensat|utimes|mknod|mknodat|setxattr|lsetxattr|removexattr|lremovexattr)$/;
const DENIALS = new Set(['ENOENT', 'EACCES', 'EPERM', 'EROFS', 'ENOTDIR']);

/**
 * Read the per-process strace files a dry run left (`<base>.<pid>`) and report what the server
 * tried that the sandbox refused. Calls of the sandbox's own setup (each process until it starts
 * something other than the sandbox binary) are skipped; a process forked by the server counts
 * from its start. A failed call on a path that does not exist on this machine either is no
 * denial (module loaders probe many): only what exists and was hidden, or a refused write, is.
 */
export async function readTrace(base: string, view: TraceView): Promise<DryRunAttempts> {
  const dir = dirname(base);
  const prefix = `${basename(base)}.`;
  const files = (await readdir(dir)).filter(
    (f) => f.startsWith(prefix) && /^\d+$/.test(f.slice(prefix.length)),
  );
  const calls = new Map<number, Call[]>();
  for (const f of files) {
    const text = await readCapped(join(dir, f));
    calls.set(Number(f.slice(prefix.length)), parseCalls(text));
  }
  const from = recordingStarts(calls, view.sandboxBinary);
  const paths = new Map<string, TriedPath>();
  const connections = new Map<string, TriedConnection>();
  let truncated = false;
  const visible = (p: string) => view.visible.some((v) => isWithin(p, v));
  for (const [pid, list] of calls) {
    const start = from.get(pid);
    if (start === undefined) continue;
    for (const call of list.slice(start)) {
      const connection = connectionOf(call);
      if (connection) {
        if (connections.size >= MAX_ITEMS) truncated = true;
        else connections.set(connection.address, connection);
        continue;
      }
      const tried = deniedPath(call, visible);
      if (!tried) continue;
      const key = `${tried.op}:${tried.path}`;
      if (paths.has(key)) continue;
      if (paths.size >= MAX_ITEMS) truncated = true;
      else paths.set(key, tried);
    }
  }
  return { recorded: true, paths: [...paths.values()], connections: [...connections.values()], truncated };
}

async function readCapped(path: string): Promise<string> {
  const buf = await readFile(path);
  return buf.subarray(0, MAX_FILE_BYTES).toString('utf8');
}

function parseCalls(text: string): Call[] {
  const out: Call[] = [];
  for (const line of text.split('\n')) {
    const m = LINE.exec(line);
    if (!m?.[1]) continue;
    const call: Call = { name: m[1], args: m[2] ?? '', ret: m[3] ?? '' };
    if (m[5]) call.errno = m[5];
    if (FORKS.has(call.name) && m[4]) call.child = Number(m[4]);
    else if (FORKS.has(call.name) && /^\d+$/.test(call.ret)) call.child = Number(call.ret);
    out.push(call);
  }
  return out;
}

/**
 * For each process, the index of its first call that is the server's: after it started
 * something other than the sandbox binary, or from the start when a process of the server forked it.
 */
function recordingStarts(calls: Map<number, Call[]>, sandboxBinary: string): Map<number, number> {
  const starts = new Map<number, number>();
  const parentOf = new Map<number, { pid: number; at: number }>();
  for (const [pid, list] of calls)
    list.forEach((c, at) => c.child !== undefined && parentOf.set(c.child, { pid, at }));
  const ownExec = (list: Call[]) =>
    list.findIndex((c) => c.name === 'execve' && c.ret === '0' && firstString(c.args) !== sandboxBinary);
  const resolve = (pid: number, depth: number): number | undefined => {
    if (starts.has(pid)) return starts.get(pid);
    const list = calls.get(pid) ?? [];
    const parent = parentOf.get(pid);
    let start: number | undefined;
    if (parent && depth < 64) {
      const parentStart = resolve(parent.pid, depth + 1);
      if (parentStart !== undefined && parentStart <= parent.at) start = 0;
    }
    if (start === undefined) {
      const exec = ownExec(list);
      if (exec >= 0) start = exec + 1;
    }
    if (start !== undefined) starts.set(pid, start);
    return start;
  };
  for (const pid of calls.keys()) resolve(pid, 0);
  return starts;
}

/** A connect or sendto with an address: where to (every one is refused: a dry run has no network). */
function connectionOf(call: Call): TriedConnection | undefined {
  if (call.name !== 'connect' && call.name !== 'sendto' && call.name !== 'sendmsg') return undefined;
  const inet = /sa_family=AF_INET, sin_port=htons\((\d+)\), sin_addr=inet_addr\("([^"]+)"\)/.exec(call.args);
  if (inet) return { address: `${inet[2]}:${inet[1]}`, family: 'ipv4' };
  const inet6 = /sa_family=AF_INET6, sin6_port=htons\((\d+)\),.*?inet_pton\(AF_INET6, "([^"]+)"/.exec(
    call.args,
  );
  if (inet6) return { address: `[${inet6[2]}]:${inet6[1]}`, family: 'ipv6' };
  if (call.name !== 'connect') return undefined;
  const unix = /sa_family=AF_UNIX, sun_path=(@?)"((?:[^"\\]|\\.)*)"/.exec(call.args);
  if (unix?.[2] !== undefined && call.ret !== '0')
    return { address: `${unix[1]}${unescape(unix[2])}`, family: 'unix' };
  return undefined;
}

/** A failed call on a path the sandbox refused, as a TriedPath; undefined for anything else. */
function deniedPath(call: Call, visible: (path: string) => boolean): TriedPath | undefined {
  if (call.ret !== '-1' || !call.errno || !DENIALS.has(call.errno)) return undefined;
  const strings = quotedStrings(call.args).filter((s) => isAbsolute(s));
  const path =
    call.name === 'symlink' || call.name === 'symlinkat' ? strings[strings.length - 1] : strings[0];
  if (!path) return undefined;
  const op: TriedPath['op'] =
    call.name === 'execve' || call.name === 'execveat'
      ? 'run'
      : WRITE_CALLS.test(call.name) || /O_(WRONLY|RDWR|CREAT|TRUNC)/.test(call.args)
        ? 'write'
        : 'read';
  if (call.errno === 'EROFS' || (op === 'write' && visible(path) && call.errno !== 'ENOENT'))
    return { path, op, denied: 'read-only' };
  if (visible(path) || !existsOnHost(path)) return undefined;
  return { path, op, denied: 'hidden' };
}

function existsOnHost(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function firstString(args: string): string | undefined {
  return quotedStrings(args)[0];
}

/** The C string literals of an argument list, unescaped. */
function quotedStrings(args: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"/g;
  for (let m = re.exec(args); m; m = re.exec(args)) out.push(unescape(m[1] ?? ''));
  return out;
}

/** strace's escapes: \\n, \\t, \\", \\\\ and \\xNN (and octal) back to the bytes they stand for. */
function unescape(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const next = text[i + 1] ?? '';
    const simple: Record<string, number> = { n: 10, t: 9, r: 13, v: 11, f: 12, '"': 34, '\\': 92 };
    if (next in simple) {
      bytes.push(simple[next] ?? 0);
      i++;
    } else if (next === 'x') {
      bytes.push(parseInt(text.slice(i + 2, i + 4), 16));
      i += 3;
    } else if (/[0-7]/.test(next)) {
      const oct = /^[0-7]{1,3}/.exec(text.slice(i + 1))?.[0] ?? '0';
      bytes.push(parseInt(oct, 8));
      i += oct.length;
    } else bytes.push(92);
  }
  return Buffer.from(bytes).toString('utf8');
}
