/**
 * Tool-search recall by split, in process (seconds, not the bench's minutes): the pool's tools
 * as `serve.mjs` lists them, the host's own ToolSelection planning each task's first request
 * under default settings, scored as the bench scores. Prints recall on all tasks and on two
 * splits — by position (even: the tuning half, odd: held out) and by the task id's last hex
 * digit (even / odd) — so a change that only fits the tuning half shows. Not part of
 * `npm run bench` (the bench goes through the real host over stdio); a tuning aid:
 *   node --import tsx tests/bench/toolsearch-splits.ts [--describe] [--misses even|odd|all]
 * `--describe` gives each server the title and description the dataset holds, as a server that
 * sends them in `initialize` (2025-11-25 Implementation fields) would.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { CatalogSnapshot, CatalogTool } from '../../shared/domain/catalog.js';
import type { Tool } from '../../shared/domain/mcp-types.js';
import type { ServerSummary } from '../../shared/domain/server-state.js';
import { DEFAULT_CHAT_SETTINGS } from '../../electron/host/stores/settings-store.js';
import { DEFAULT_TUNING } from '../../electron/host/tool-selection/rank-tools.js';
import { ToolSelection } from '../../electron/host/tool-selection/tool-selection.js';
import { poolQueries, scoreTask, toolsearchData, type PoolQuery } from '../helpers/toolsearch-pool.js';

interface PoolServer {
  name: string;
  title?: string;
  description?: string;
  tools: Tool[];
}

/** The split a task falls in, by its position and by its id. */
const splits: Record<string, (q: PoolQuery, i: number) => boolean> = {
  even: (_q, i) => i % 2 === 0,
  odd: (_q, i) => i % 2 === 1,
  'id-even': (q) => parseInt(q.id.slice(-1), 16) % 2 === 0,
  'id-odd': (q) => parseInt(q.id.slice(-1), 16) % 2 === 1,
};

/** The pool as the host's catalog and server list, as the servers would answer. */
function poolSource(dir: string, describe: boolean) {
  const tools: CatalogTool[] = [];
  const list: ServerSummary[] = [];
  for (const f of readdirSync(path.join(dir, 'servers')).sort()) {
    const id = f.replace(/\.json$/, '');
    const s = JSON.parse(readFileSync(path.join(dir, 'servers', f), 'utf8')) as PoolServer;
    for (const t of s.tools)
      tools.push({
        serverId: id,
        enabled: true,
        tool: { ...t, description: t.description ?? '', inputSchema: t.inputSchema ?? { type: 'object' } },
      });
    list.push({
      id,
      config: null,
      transport: 'stdio',
      counts: { tools: s.tools.length, resources: 0, templates: 0, prompts: 0 },
      state: {
        kind: 'connected',
        since: 0,
        info: {
          name: s.name,
          version: '1.0.0',
          protocolEra: 'legacy',
          capabilities: {},
          ...(describe && s.title ? { title: s.title } : {}),
          ...(describe && s.description ? { description: s.description } : {}),
        },
      },
    });
  }
  const catalog: CatalogSnapshot = { tools, resources: [], templates: [], prompts: [] };
  return { catalog: () => catalog, list: () => list };
}

const data = toolsearchData();
if ('skip' in data) {
  console.log(`toolsearch-splits: skipped: ${data.skip}`);
  process.exit(0);
}
const args = process.argv.slice(2);
const describe = args.includes('--describe');
const missesOf = args.includes('--misses') ? args[args.indexOf('--misses') + 1] : undefined;
const queries = poolQueries(data.dir);
// Tuning experiments: TOOLSEARCH_TUNING='{"serverWeight":0.5}' overrides the ranking's constants.
if (process.env.TOOLSEARCH_TUNING) Object.assign(DEFAULT_TUNING, JSON.parse(process.env.TOOLSEARCH_TUNING));
const selection = new ToolSelection(poolSource(data.dir, describe));
const results: { found: number; total: number; all: boolean; tokens: number }[] = [];
const t0 = performance.now();
for (const [i, q] of queries.entries()) {
  const plan = await selection.planRun({
    settings: DEFAULT_CHAT_SETTINGS,
    cap: 128,
    messages: [
      {
        id: 'eval',
        role: 'user',
        parts: [{ type: 'text', text: q.query.replace(/\s+/g, ' ').trim() }],
        createdAt: 0,
      },
    ],
  });
  const declared = new Set(plan.report.tools.map((t) => `${t.serverId}/${t.tool}`));
  const s = scoreTask(q, declared);
  results.push({ ...s, tokens: plan.report.tokens });
  const show = missesOf === 'all' || (missesOf !== undefined && splits[missesOf]?.(q, i));
  if (show && !s.all) {
    const missed = q.gold.filter(
      (g) => ![g, ...(g.alternatives ?? [])].some((x) => declared.has(`${x.server}/${x.tool}`)),
    );
    console.log(
      `#${i} ${q.query.slice(0, 160)}\n   missed: ${missed.map((g) => `${g.server}/${g.tool}`).join(' ')}`,
    );
  }
}
const ms = performance.now() - t0;
const line = (name: string, pick: (q: PoolQuery, i: number) => boolean) => {
  let found = 0;
  let total = 0;
  let tasks = 0;
  let n = 0;
  queries.forEach((q, i) => {
    if (!pick(q, i)) return;
    found += results[i].found;
    total += results[i].total;
    tasks += results[i].all ? 1 : 0;
    n++;
  });
  return `${name.padEnd(8)} n=${String(n).padStart(2)} gold ${(found / total).toFixed(3)} task ${(tasks / n).toFixed(3)}`;
};
console.log(line('all', () => true));
for (const [name, pick] of Object.entries(splits)) console.log(line(name, pick));
const tokens = results.map((r) => r.tokens).sort((a, b) => a - b);
console.log(
  `tokens p50 ${tokens[Math.floor(tokens.length / 2)]} p95 ${tokens[Math.floor(tokens.length * 0.95)]}; ${queries.length} plans in ${ms.toFixed(0)} ms`,
);
