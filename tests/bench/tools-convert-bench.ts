/**
 * Converting a large catalog for the model: 2,000 tools from 20 servers, with schemas of the
 * kinds real servers send ($defs/$ref, anyOf, enums, nested arrays of objects, formats), go
 * the way a chat turn takes them: the host's catalog snapshot, the tool offer (enabled
 * filter, sort, provider-safe qualified names, cut at the provider's limit of 128 tools per
 * request) and the provider's declarations (Gemini's schema conversion; OpenAI's tools).
 * Each "changed" time follows a reload of every server's list (new tool objects: nothing can
 * be reused); "cached" is the next turn with nothing changed.
 *   tools_2000_convert_ms            Gemini, after a list change (median)        goal <= 20
 *   tools_2000_convert_cpu_ms        the same as CPU time (a busy machine inflates wall time)
 *   tools_2000_convert_cached_ms     Gemini, nothing changed
 *   tools_2000_convert_openai_ms     OpenAI-compatible, after a list change
 *   tools_2000_convert_cold_ms       the first conversion in the process (code not yet compiled)
 *   tools_2000_convert_all_ms        every one of the 2,000 tools declared (the limit lifted)
 *   tools_2000_convert_all_cached_ms the same, nothing changed
 * No timing is asserted.
 */
import type { ChatSettings } from '../../shared/domain/chat.js';
import type { JsonSchema, Tool } from '../../shared/domain/mcp-types.js';
import { Catalog } from '../../electron/host/catalog/catalog.js';
import type { ServerLists } from '../../electron/host/catalog/server-catalog.js';
import { toGeminiDeclarations } from '../../electron/host/chat/providers/gemini/gemini-declarations.js';
import { GEMINI_MAX_TOOLS } from '../../electron/host/chat/providers/gemini/gemini-provider.js';
import { OPENAI_MAX_TOOLS } from '../../electron/host/chat/providers/openai-provider.js';
import { toOpenAiTool } from '../../electron/host/chat/providers/openai-request.js';
import { ToolOfferCache } from '../../electron/host/chat/tool-offer-cache.js';
import { HostEvents } from '../../electron/host/host-events.js';

const SERVERS = 20;
const PER_SERVER = 100;
const ROUNDS = Number(process.env.BENCH_CONVERT_ROUNDS ?? 15);

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** One of a handful of schema shapes, varied by `i` so no two tools share a schema object. */
function schemaFor(i: number): JsonSchema {
  switch (i % 5) {
    case 0:
      return {
        type: 'object',
        properties: {
          message: { type: 'string', description: `text ${i}` },
          count: { type: 'integer', minimum: 0 },
        },
        required: ['message'],
      };
    case 1:
      return {
        type: 'object',
        $defs: {
          point: {
            type: 'object',
            properties: { x: { type: 'number' }, y: { type: 'number' } },
            required: ['x', 'y'],
          },
        },
        properties: {
          from: { $ref: '#/$defs/point' },
          to: { $ref: '#/$defs/point' },
          via: { type: 'array', items: { $ref: '#/$defs/point' }, maxItems: 10 },
        },
        required: ['from', 'to'],
        additionalProperties: false,
      };
    case 2:
      return {
        type: 'object',
        properties: {
          mode: { type: 'string', enum: ['fast', 'slow', `mode-${i}`] },
          level: { type: 'integer', enum: [1, 2, 3] },
          target: { anyOf: [{ type: 'string', format: 'uri' }, { type: 'null' }] },
          options: {
            type: 'object',
            properties: {
              dryRun: { type: 'boolean', default: false },
              tags: { type: 'array', items: { type: 'string' } },
            },
          },
        },
        required: ['mode'],
      };
    case 3:
      return {
        type: 'object',
        properties: {
          query: { type: 'string', minLength: 1, maxLength: 500, pattern: '^[^\\n]+$' },
          filters: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                field: { type: 'string' },
                op: { type: 'string', enum: ['eq', 'ne', 'lt', 'gt'] },
                value: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
              },
              required: ['field', 'op', 'value'],
            },
          },
          since: { type: 'string', format: 'date-time' },
        },
        required: ['query'],
      };
    default:
      return { type: 'object', properties: {} };
  }
}

/** Fresh lists for every server: what a reload after list_changed hands the catalog. */
function freshLists(): Map<string, ServerLists> {
  const lists = new Map<string, ServerLists>();
  for (let s = 0; s < SERVERS; s++) {
    const tools: Tool[] = Array.from({ length: PER_SERVER }, (_, t) => ({
      name: `tool-${t}-${s % 3 === 0 ? 'with.dots' : 'plain'}`,
      description: `Does thing ${t} of server ${s}; a description long enough to look like a real one.`,
      inputSchema: schemaFor(s * PER_SERVER + t),
    }));
    lists.set(`server-${s}`, { tools, resources: [], templates: [], prompts: [] });
  }
  return lists;
}

/** Wall time, and the CPU time of this process (what a busy machine's other work cannot inflate). */
function time(fn: () => void, cpu?: number[]): number {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  cpu?.push((c.user + c.system) / 1000);
  return wall;
}

/** One conversion path: the catalog snapshot, the offer (cut at `limit`), the provider's declarations. */
function converter(catalog: Catalog, limit: number, provider: 'gemini' | 'openai'): () => void {
  const settings = { disabledServers: [], disabledTools: [] } as unknown as ChatSettings;
  const offers = new ToolOfferCache();
  return () => {
    const plan = offers.offer(catalog.snapshot(), settings, limit);
    const declared =
      provider === 'gemini' ? toGeminiDeclarations(plan.tools).declarations : plan.tools.map(toOpenAiTool);
    if (plan.enabledCount !== SERVERS * PER_SERVER || declared.length !== limit)
      throw new Error(`${declared.length} of ${plan.enabledCount} tools declared, expected ${limit}`);
  };
}

/** Median wall (and CPU) time of `convert` right after every server's list changed, and once more unchanged. */
function measure(
  convert: () => void,
  relist: () => void,
): { changed: number; changedCpu: number; cached: number } {
  const changed: number[] = [];
  const changedCpu: number[] = [];
  const cached: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    relist();
    changed.push(time(convert, changedCpu));
    cached.push(time(convert));
  }
  return { changed: median(changed), changedCpu: median(changedCpu), cached: median(cached) };
}

/** tools_2000_convert_ms and the numbers behind it. */
export async function runToolsConvertBench(): Promise<Record<string, number>> {
  let lists = freshLists();
  const relist = () => {
    lists = freshLists();
  };
  const catalog = new Catalog({ connectedLists: () => lists.entries() }, new HostEvents(), () => undefined);
  // The first conversion in a fresh process also pays for compiling the converter.
  const coldMs = time(converter(catalog, GEMINI_MAX_TOOLS, 'gemini'));
  const gemini = measure(converter(catalog, GEMINI_MAX_TOOLS, 'gemini'), relist);
  const openai = measure(converter(catalog, OPENAI_MAX_TOOLS, 'openai'), relist);
  const all = measure(converter(catalog, SERVERS * PER_SERVER, 'gemini'), relist);
  await Promise.resolve();
  const ms = (v: number) => Number(v.toFixed(2));
  return {
    tools_2000_convert_ms: ms(gemini.changed),
    tools_2000_convert_cpu_ms: ms(gemini.changedCpu),
    tools_2000_convert_cached_ms: Number(gemini.cached.toFixed(3)),
    tools_2000_convert_openai_ms: ms(openai.changed),
    tools_2000_convert_cold_ms: ms(coldMs),
    tools_2000_convert_all_ms: ms(all.changed),
    tools_2000_convert_all_cached_ms: Number(all.cached.toFixed(3)),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await runToolsConvertBench()));
}
