/**
 * Tool search on a real benchmark: LiveMCPBench's pool (70 servers, 527 tools, served over
 * stdio by the data folder's serve.mjs) and its 95 tasks, read from ../shared/benchmarks/
 * toolsearch/ (skipped with a printed reason when absent; never copied into the project).
 * One run of the real host — `mcp-desk offer --prompts FILE --json`, servers connected once —
 * gives each task's first-request offer (default settings: search mode, 32 tools, about 8k
 * tokens, lexical only), scored as the folder's README says:
 *   toolsearch_gold_recall_at_32        found gold tools / all gold tools          goal >= 0.80
 *   toolsearch_task_recall_at_32        tasks with every gold tool found           goal >= 0.60
 *   toolsearch_*_heldout                the same on the odd-numbered half (ranking was tuned on the even half)
 *   toolsearch_tokens_p50               declared tokens per request (chars / 4)    goal <= 8000
 *   toolsearch_tokens_p95               the same, 95th percentile (the budget holds each request to about 8000)
 *   toolsearch_over_cap                 requests declaring more than the provider accepts (must be 0)
 * And in this process, on the pool plus generated distractors (2,000+ tools):
 *   toolsearch_rank_ms_p95              one ranking of a task's text               goal <= 5
 *   toolsearch_index_ms                 building that index (median of fresh builds) goal <= 500
 * No value is asserted.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync, readdirSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Tool } from '../../shared/domain/mcp-types.js';
import { rankTools } from '../../electron/host/tool-selection/rank-tools.js';
import { ToolIndex, type IndexEntry } from '../../electron/host/tool-selection/tool-index.js';
import {
  poolConfig,
  poolQueries,
  scoreTask,
  toolsearchData,
  type PoolQuery,
} from '../helpers/toolsearch-pool.js';

const cli = fileURLToPath(new URL('../../out/headless/cli.mjs', import.meta.url));
const DISTRACTORS = Number(process.env.BENCH_TOOLSEARCH_DISTRACTORS ?? 1500);
const RANK_ROUNDS = Number(process.env.BENCH_TOOLSEARCH_ROUNDS ?? 5);

interface OfferLine {
  prompt: string;
  declared: number;
  tools: { server: string; tool: string }[];
  tokens: number;
  cap: number;
}

function quantile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

/** The real host, headless: one `offer` run over every task, servers connected once. */
async function offers(dir: string, queries: PoolQuery[]): Promise<OfferLine[]> {
  const work = await mkdtemp(path.join(tmpdir(), 'mcp-desk-toolsearch-'));
  try {
    const config = path.join(work, 'servers.json');
    const prompts = path.join(work, 'prompts.txt');
    await writeFile(config, JSON.stringify(poolConfig(dir)));
    // One prompt per line: a task's own line breaks become spaces.
    await writeFile(prompts, queries.map((q) => q.query.replace(/\s+/g, ' ').trim()).join('\n'));
    const stdout = await new Promise<string>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [cli, '--config', config, '--timeout', '120000', 'offer', '--prompts', prompts, '--json'],
        {
          env: { ...process.env, MCP_DESK_DATA_DIR: path.join(work, 'data') },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      let err = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
      child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
      child.on('error', reject);
      child.on('exit', (code) =>
        code === 0 ? resolve(out) : reject(new Error(`offer exited ${code}: ${err.slice(-500)}`)),
      );
    });
    return stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as OfferLine);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

function recall(
  queries: PoolQuery[],
  lines: OfferLine[],
  pick: (i: number) => boolean,
): { gold: number; task: number } {
  let found = 0;
  let total = 0;
  let tasks = 0;
  let n = 0;
  queries.forEach((q, i) => {
    if (!pick(i)) return;
    const s = scoreTask(q, new Set(lines[i].tools.map((t) => `${t.server}/${t.tool}`)));
    found += s.found;
    total += s.total;
    if (s.all) tasks++;
    n++;
  });
  return { gold: Number((found / total).toFixed(3)), task: Number((tasks / n).toFixed(3)) };
}

/** The pool as index entries, plus distractors: real tools' words recombined under other servers and names. */
export function bigPool(dir: string): IndexEntry[] {
  const pool: IndexEntry[] = [];
  for (const f of readdirSync(path.join(dir, 'servers'))) {
    const s = JSON.parse(readFileSync(path.join(dir, 'servers', f), 'utf8')) as {
      name: string;
      tools: Tool[];
    };
    for (const tool of s.tools) pool.push({ serverId: s.name, tool, server: { name: s.name } });
  }
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = () => pool[Math.floor(rnd() * pool.length)];
  const distractors: IndexEntry[] = [];
  for (let i = 0; i < DISTRACTORS; i++) {
    const a = pick().tool;
    const b = pick().tool;
    distractors.push({
      serverId: `distractor-${i % 100}`,
      tool: {
        name: `${a.name}_${b.name.split(/[_-]/).pop() ?? 'x'}_${i}`,
        description: `${(a.description ?? '').slice(0, 300)} ${(b.description ?? '').slice(0, 200)}`,
        inputSchema: b.inputSchema,
      },
      server: { name: `distractor-${i % 100}` },
    });
  }
  return [...pool, ...distractors];
}

/** Wall and CPU time of one call, in ms (CPU: this process, user + system). */
function timed(f: () => void): { wall: number; cpu: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  f();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000 };
}

/** Index build (median of fresh builds) and one ranking's p95, at 2,000+ tools, as wall and CPU time. */
export function timings(
  dir: string,
  queries: PoolQuery[],
): { indexMs: number; indexCpuMs: number; rankP95: number; rankCpuP95: number; tools: number } {
  const entries = bigPool(dir);
  // Warm-up: the first build also compiles the code and fills the stemmer's cache.
  new ToolIndex().sync(entries);
  const builds: { wall: number; cpu: number }[] = [];
  let index = new ToolIndex();
  for (let i = 0; i < 5; i++) {
    const fresh = new ToolIndex();
    builds.push(timed(() => fresh.sync(entries)));
    index = fresh;
  }
  const ranks: { wall: number; cpu: number }[] = [];
  for (let r = 0; r < RANK_ROUNDS; r++) {
    for (const q of queries) ranks.push(timed(() => rankTools(index, q.query, { limit: 32 })));
  }
  return {
    indexMs: quantile(
      builds.map((b) => b.wall),
      0.5,
    ),
    indexCpuMs: quantile(
      builds.map((b) => b.cpu),
      0.5,
    ),
    rankP95: quantile(
      ranks.map((r) => r.wall),
      0.95,
    ),
    rankCpuP95: quantile(
      ranks.map((r) => r.cpu),
      0.95,
    ),
    tools: index.size,
  };
}

/** Every toolsearch_* key (none when the data is absent). */
export async function runToolsearchBench(): Promise<Record<string, number>> {
  const data = toolsearchData();
  if ('skip' in data) {
    console.log(`toolsearch: skipped: ${data.skip}`);
    return {};
  }
  const queries = poolQueries(data.dir);
  const t0 = performance.now();
  const lines = await offers(data.dir, queries);
  console.log(
    `toolsearch: ${lines.length} offers through the host in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  if (lines.length !== queries.length)
    throw new Error(`${lines.length} offer lines for ${queries.length} tasks`);
  const all = recall(queries, lines, () => true);
  const tuned = recall(queries, lines, (i) => i % 2 === 0);
  const heldOut = recall(queries, lines, (i) => i % 2 === 1);
  console.log(`toolsearch: tuning half ${JSON.stringify(tuned)}, held-out half ${JSON.stringify(heldOut)}`);
  const t = timings(data.dir, queries);
  console.log(
    `toolsearch: ${t.tools} tools indexed for the timing; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  return {
    toolsearch_gold_recall_at_32: all.gold,
    toolsearch_task_recall_at_32: all.task,
    toolsearch_gold_recall_at_32_heldout: heldOut.gold,
    toolsearch_task_recall_at_32_heldout: heldOut.task,
    toolsearch_tokens_p50: quantile(
      lines.map((l) => l.tokens),
      0.5,
    ),
    toolsearch_tokens_p95: quantile(
      lines.map((l) => l.tokens),
      0.95,
    ),
    toolsearch_declared_max: Math.max(...lines.map((l) => l.declared)),
    toolsearch_over_cap: lines.filter((l) => l.declared > l.cap).length,
    toolsearch_rank_ms_p95: Number(t.rankP95.toFixed(2)),
    toolsearch_index_ms: Number(t.indexMs.toFixed(1)),
    toolsearch_rank_cpu_ms_p95: Number(t.rankCpuP95.toFixed(2)),
    toolsearch_index_cpu_ms: Number(t.indexCpuMs.toFixed(1)),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await runToolsearchBench()));
}
