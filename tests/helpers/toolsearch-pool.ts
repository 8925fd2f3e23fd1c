/**
 * The tool-search benchmark data (LiveMCPBench's tool pool and tasks), read where it lives:
 * `../shared/benchmarks/toolsearch/` beside the repository (MCP_DESK_TOOLSEARCH_DIR wins). It
 * is never copied into the project; tests and the bench skip with a printed reason without it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** One task: its text and the tools a person chose (each with accepted alternatives). */
export interface PoolQuery {
  id: string;
  query: string;
  gold: { server: string; tool: string; alternatives?: { server: string; tool: string }[] }[];
}

/** The data folder, or why it cannot be used. */
export function toolsearchData(): { dir: string } | { skip: string } {
  const candidates = [
    process.env.MCP_DESK_TOOLSEARCH_DIR,
    path.resolve(repoRoot, '../shared/benchmarks/toolsearch'),
    // A worktree or clone one level deeper than usual still finds the shared folder.
    path.resolve(repoRoot, '../../shared/benchmarks/toolsearch'),
  ].filter((d): d is string => Boolean(d));
  for (const dir of candidates) {
    if (existsSync(path.join(dir, 'queries.json')) && existsSync(path.join(dir, 'serve.mjs'))) return { dir };
  }
  return { skip: `the tool-search data is not at ${candidates.join(' or ')} (see its README)` };
}

/** The pool's server names (one per servers/*.json file). */
export function poolServers(dir: string): string[] {
  return readdirSync(path.join(dir, 'servers'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

/** An mcpServers config that serves every pool server (or `only`) with the folder's serve.mjs over stdio. */
export function poolConfig(dir: string, only?: readonly string[]): { mcpServers: Record<string, unknown> } {
  const mcpServers: Record<string, unknown> = {};
  for (const name of only ?? poolServers(dir)) {
    mcpServers[name] = {
      command: process.execPath,
      args: [path.join(dir, 'serve.mjs'), path.join(dir, 'servers', `${name}.json`)],
    };
  }
  return { mcpServers };
}

/** The 95 tasks. */
export function poolQueries(dir: string): PoolQuery[] {
  return JSON.parse(readFileSync(path.join(dir, 'queries.json'), 'utf8')) as PoolQuery[];
}

/** Found gold items and whether all were found, for one task against a declared set of `server/tool` keys. */
export function scoreTask(
  q: PoolQuery,
  declared: ReadonlySet<string>,
): { found: number; total: number; all: boolean } {
  let found = 0;
  for (const g of q.gold) {
    if ([g, ...(g.alternatives ?? [])].some((x) => declared.has(`${x.server}/${x.tool}`))) found++;
  }
  return { found, total: q.gold.length, all: found === q.gold.length };
}
