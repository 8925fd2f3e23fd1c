// Shared by the chaos and soak tests and benches: the worker fixture and a replayable random source.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive } from '../../electron/host/connection/process-tree.js';
import { REPO_ROOT } from './server-processes.js';

/** The chaos worker fixture (tool `work {id, ms}` answering "<id> <pid>"). */
export const CHAOS_SERVER = join(REPO_ROOT, 'tests/fixtures/chaos-server.mjs');

/** A small deterministic generator (mulberry32), so a failing chaos run can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Live pids per server, in one pass over /proc: each server runs with `MCP_DESK_CHAOS=<run>-<id>`
 * in its environment, which its children inherit too (Linux only, like pidsWithEnv).
 */
export function chaosPids(run: string): Map<string, number[]> {
  const found = new Map<string, number[]>();
  const pattern = new RegExp(`(?:^|\\0)MCP_DESK_CHAOS=${run}-([^\\0]+)`);
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${name}/environ`, 'utf8');
    } catch {
      continue; // Gone meanwhile, or not ours to read.
    }
    const m = pattern.exec(environ);
    if (m && isAlive(Number(name))) found.set(m[1], [...(found.get(m[1]) ?? []), Number(name)]);
  }
  return found;
}
