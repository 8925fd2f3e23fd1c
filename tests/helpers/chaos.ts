// Shared by the chaos and soak tests and benches: the worker fixture and a replayable random source.
import { join } from 'node:path';
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
