/**
 * Tool selection's parts in isolation: the words the index compares, the needs a request
 * implies, the incremental index, the ranking's sibling and per-server rules, each run's
 * bounded offer (tools, tokens, the provider's cap, search finds, eviction, review), and the
 * on-disk vector cache.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { CatalogTool } from '../../shared/domain/catalog.js';
import type { ChatSettings } from '../../shared/domain/chat.js';
import type { Tool } from '../../shared/domain/mcp-types.js';
import type { ServerSummary } from '../../shared/domain/server-state.js';
import { buildToolOffer } from '../../electron/host/chat/tool-offer.js';
import { declarationTokens } from '../../electron/host/tool-selection/declaration-tokens.js';
import { VectorCache } from '../../electron/host/tool-selection/embeddings/vector-cache.js';
import { impliedWords } from '../../electron/host/tool-selection/query-intents.js';
import { rankTools } from '../../electron/host/tool-selection/rank-tools.js';
import {
  RunOffer,
  type KeyedHit,
  type RunOfferInputs,
} from '../../electron/host/tool-selection/run-offer.js';
import { searchTerms } from '../../electron/host/tool-selection/search-text.js';
import { ToolIndex } from '../../electron/host/tool-selection/tool-index.js';
import { ToolSelection } from '../../electron/host/tool-selection/tool-selection.js';

const schema = { type: 'object', properties: { path: { type: 'string', description: 'Where' } } };
const tool = (name: string, description: string): Tool => ({ name, description, inputSchema: schema });
const settings = { provider: 'gemini', disabledServers: [], disabledTools: [] } as unknown as ChatSettings;

test('search terms: identifiers split into words, common words dropped, stems shared, CJK in pairs, letter-digit words whole', () => {
  assert.deepEqual(searchTerms('getStoryWithComments'), ['getstorywithcom', 'stori', 'comment']);
  assert.deepEqual(searchTerms('list_directory_with-sizes'), ['list', 'directori', 'size']);
  assert.deepEqual(searchTerms('Saving the files'), searchTerms('save file'));
  assert.deepEqual(searchTerms('base64 context7 mp3'), ['base64', 'context7', 'mp3']);
  assert.deepEqual(searchTerms('获取热榜'), ['获取', '取热', '热榜']);
  assert.deepEqual(searchTerms('news'), ['news'], '"news" is not "new"');
  assert.ok(searchTerms('GitHub').includes('github'));
});

test('search terms: opaque data pasted into a request (base64, hashes) is no words; long paths and names still are', () => {
  const blob = 'iVBORw0KGgoAAAANSUhEUgAAAgAAAAIACAYAAAD0eNT6AAAABHNCSVQICAgIfAhkiAAAAAlwSFlz';
  assert.deepEqual(searchTerms(`What does this base64 image mean? ${blob}`), ['base64', 'imag', 'mean']);
  assert.deepEqual(searchTerms('sha e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'), [
    'sha',
  ]);
  assert.deepEqual(
    searchTerms('/modelcontextprotocol/servers/tree/main/src'),
    searchTerms('modelcontextprotocol servers tree main src'),
  );
  assert.ok(searchTerms('getStoryWithCommentsAndAllTheirReplies').includes('repli'));
});

test('implied words: a path to write, a relative date, a link, an id, each add what the request leaves unsaid', () => {
  const save = impliedWords('Summarise it and save it to /root/notes/report.md');
  for (const w of searchTerms('file write markdown'))
    assert.ok(save.includes(w), `${w} in ${save.join(' ')}`);
  assert.ok(impliedWords('tickets for next Wednesday').includes('current'));
  assert.ok(impliedWords('what happened in the last 24h').includes('time'));
  assert.ok(impliedWords('summarise https://example.com/a').includes('fetch'));
  assert.ok(impliedWords('Research summary for NCT04280705').includes('trial'));
  assert.deepEqual(impliedWords('a plain request about chess openings'), []);
  // Never the request's own words again.
  assert.ok(!impliedWords('write the file /tmp/x.txt').includes('write'));
});

test('the index syncs incrementally: unchanged tools cost nothing, a new definition object replaces one, a gone tool leaves', () => {
  const index = new ToolIndex();
  const a = tool('read_file', 'Read a file');
  const b = tool('write_file', 'Write a file');
  assert.equal(
    index.sync([
      { serverId: 'fs', tool: a },
      { serverId: 'fs', tool: b },
    ]),
    2,
  );
  assert.equal(
    index.sync([
      { serverId: 'fs', tool: a },
      { serverId: 'fs', tool: b },
    ]),
    0,
  );
  const b2 = tool('write_file', 'Write or append to a file on disk');
  assert.equal(
    index.sync([
      { serverId: 'fs', tool: a },
      { serverId: 'fs', tool: b2 },
    ]),
    1,
  );
  assert.ok(index.query(new Map([['append', 1]])).some((h) => h.id === 'fs/write_file'));
  assert.equal(index.sync([{ serverId: 'fs', tool: a }]), 1);
  assert.equal(index.size, 1);
  assert.deepEqual(index.query(new Map([['append', 1]])), []);
});

function pool(): { serverId: string; tool: Tool }[] {
  const out: { serverId: string; tool: Tool }[] = [];
  out.push({ serverId: 'slides', tool: tool('add_slide', 'Add a slide to the presentation') });
  out.push({ serverId: 'slides', tool: tool('create_presentation', 'Create a new presentation') });
  out.push({ serverId: 'slides', tool: tool('save_presentation', 'Save the presentation to a file') });
  out.push({ serverId: 'slides', tool: tool('delete_slide', 'Delete a slide') });
  for (let i = 0; i < 40; i++)
    out.push({ serverId: `noise${i % 8}`, tool: tool(`slide_effect_${i}`, `Slide effect number ${i}`) });
  out.push({ serverId: 'fs', tool: tool('write_file', 'Write a file to disk') });
  out.push({ serverId: 'clock', tool: tool('get_current_time', 'Current time and date in a time zone') });
  return out;
}

test('ranking: siblings of a matching server come along, one server cannot take every slot, implied tools get in', () => {
  const index = new ToolIndex();
  index.sync(pool());
  const ranked = rankTools(index, 'Add a slide about cats and save it to /root/ppt/cats.pptx tomorrow', {
    limit: 12,
  });
  const ids = ranked.map((r) => r.id);
  assert.ok(ids.includes('slides/add_slide'));
  assert.ok(ids.includes('slides/create_presentation'), 'a sibling the request did not name');
  assert.ok(ids.includes('fs/write_file'), 'the path implies writing a file');
  assert.ok(ids.includes('clock/get_current_time'), '"tomorrow" implies the date');
  assert.ok(ranked.length <= 12);
  const noise = ranked.filter((r) => r.serverId.startsWith('noise'));
  assert.ok(noise.length < 8, `${noise.length} noise tools`);
  // The sibling that deletes ranks below the ones that create and save.
  const order = (id: string) => (ids.includes(id) ? ids.indexOf(id) : Infinity);
  assert.ok(order('slides/delete_slide') > order('slides/create_presentation'));
});

/** A RunOffer over `count` tools of one server plus `extra`, with a lexical rank over them. */
function inputs(
  count: number,
  over: Partial<RunOfferInputs> = {},
  extra: CatalogTool[] = [],
): RunOfferInputs {
  const tools: CatalogTool[] = [
    ...Array.from({ length: count }, (_, i) => ({
      serverId: 'many',
      tool: tool(`t${String(i).padStart(3, '0')}`, `Fixture tool ${i} about topic${i % 10}`),
      enabled: true,
    })),
    ...extra,
  ];
  const full = buildToolOffer(
    { tools, resources: [], templates: [], prompts: [] },
    settings,
    Number.MAX_SAFE_INTEGER,
  );
  const index = new ToolIndex();
  index.sync(tools.map((t) => ({ serverId: t.serverId, tool: t.tool })));
  return {
    full,
    budget: { mode: 'search', maxTools: 32, maxTokens: 8000 },
    cap: 128,
    pinned: [],
    used: [],
    query: 'topic3',
    rank: (query, limit, exclude) =>
      Promise.resolve(
        rankTools(index, query, { limit, exclude }).map((r): KeyedHit => ({
          ...r,
          line: '',
          reason: r.reason,
          terms: r.terms,
        })),
      ),
    awaitingReview: () => false,
    ...over,
  };
}

test('the offer: at most N tools plus the search tool, within the token budget and the provider cap, in a stable order', async () => {
  const plan = await RunOffer.plan(inputs(300));
  assert.equal(plan.tools[0].name, 'search_tools');
  assert.ok(plan.tools.length <= 33);
  assert.ok(plan.report.tokens <= 8000);
  const names = plan.tools.slice(1).map((t) => t.name);
  assert.deepEqual(names, [...names].sort(), 'the core is in name order');
  assert.ok(plan.report.tools.every((t) => t.reason === 'hit'));

  const tight = await RunOffer.plan(
    inputs(300, { budget: { mode: 'search', maxTools: 32, maxTokens: 600 } }),
  );
  assert.ok(tight.report.tokens <= 600, `${tight.report.tokens} tokens`);

  // However large the budget, never more declarations than the provider accepts.
  const capped = await RunOffer.plan(
    inputs(300, { cap: 20, budget: { mode: 'search', maxTools: 500, maxTokens: 1e6 } }),
  );
  assert.ok(capped.tools.length <= 20, `${capped.tools.length} declared`);
  const all = await RunOffer.plan(
    inputs(300, { cap: 20, budget: { mode: 'all', maxTools: 32, maxTokens: 8000 } }),
  );
  assert.equal(all.tools.length, 20);
  assert.match(all.warnings[0], /at most 20/);

  const few = await RunOffer.plan(inputs(5));
  assert.equal(few.search, undefined, 'everything fits: no search tool');
  assert.equal(few.tools.length, 5);
});

test('the offer: pinned and used tools first; a search appends its finds, evicting the lowest-ranked hits; a tool awaiting review is never found', async () => {
  const plan = await RunOffer.plan(
    inputs(300, { pinned: ['many/t299'], used: ['many/t298'], awaitingReview: (id) => id === 'many/t007' }),
  );
  const reasons = new Map(plan.report.tools.map((t) => [t.tool, t.reason]));
  assert.equal(reasons.get('t299'), 'pinned');
  assert.equal(reasons.get('t298'), 'used');
  const before = plan.tools.map((t) => t.name);
  const result = await plan.search!.run({ query: 'topic7', limit: 5 });
  assert.ok(!result.isError);
  const after = plan.tools.map((t) => t.name);
  assert.ok(after.length <= 33);
  const found = plan.report.tools.filter((t) => t.reason === 'found');
  // Equal scores rank by name, so t007 would lead the five were it not awaiting review.
  assert.equal(found.length, 5);
  assert.ok(!found.some((t) => t.tool === 't007'));
  assert.ok(found.every((t) => t.query === 'topic7'));
  assert.ok(!after.includes('many__t007'));
  assert.ok(after.includes('many__t299') && after.includes('many__t298'), 'pinned and used stay');
  // Finds are appended: the kept core keeps its relative order.
  const kept = before.filter((n) => after.includes(n));
  assert.deepEqual(after.slice(0, kept.length), kept);
  // Every tool declared in the run stays callable by its name, evicted or not.
  for (const n of before.slice(1)) assert.ok(plan.byName.has(n));
  const bad = await plan.search!.run({});
  assert.equal(bad.isError, true);
});

test('declaration tokens are characters / 4 of the name, description and schema', () => {
  const t = { name: 'abcd', description: 'x'.repeat(96), inputSchema: { type: 'object' } };
  assert.equal(declarationTokens(t), Math.ceil((4 + 96 + JSON.stringify({ type: 'object' }).length) / 4));
});

test('the vector cache keeps vectors across instances on disk, keyed by space and fingerprint', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'vectors-'));
  try {
    const path = join(dir, 'tool-vectors.json');
    const a = new VectorCache(path);
    await a.set('openai:m', 'f1', [0.5, 0.25]);
    await a.save();
    const b = new VectorCache(path);
    assert.deepEqual([...((await b.get('openai:m', 'f1')) ?? [])], [0.5, 0.25]);
    assert.equal(await b.get('openai:other', 'f1'), undefined);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('ToolSelection.search only returns offerable tools when given settings, and explains hits', async () => {
  const tools: CatalogTool[] = pool().map((p) => ({ ...p, enabled: true }));
  const sel = new ToolSelection({
    catalog: () => ({ tools, resources: [], templates: [], prompts: [] }),
    list: () => [],
  });
  const off = { ...settings, disabledServers: ['fs'] };
  const hits = await sel.search('write a file', { limit: 5, settings: off });
  assert.ok(!hits.some((h) => h.serverId === 'fs'));
  const all = await sel.search('write a file', { limit: 5 });
  const top = all[0];
  assert.equal(top.serverId, 'fs');
  assert.equal(top.reason, 'match');
  assert.deepEqual(top.terms.sort(), ['file', 'write']);
});

test("ToolSelection indexes what a server says it is for (initialize's serverInfo.description, 2025-11-25)", async () => {
  const tools: CatalogTool[] = [
    { serverId: 'rail', tool: tool('get_tickets', 'Query remaining seats'), enabled: true },
    { serverId: 'notes', tool: tool('add_note', 'Add a note'), enabled: true },
  ];
  const connected = (id: string, description?: string): ServerSummary => ({
    id,
    config: null,
    transport: 'stdio',
    counts: { tools: 1, resources: 0, templates: 0, prompts: 0 },
    state: {
      kind: 'connected',
      since: 0,
      info: {
        name: id,
        version: '1.0.0',
        protocolEra: 'modern',
        capabilities: {},
        ...(description ? { description } : {}),
      },
    },
  });
  let list = [connected('rail'), connected('notes')];
  const sel = new ToolSelection({
    catalog: () => ({ tools, resources: [], templates: [], prompts: [] }),
    list: () => list,
  });
  assert.deepEqual(await sel.search('train timetable', { limit: 5 }), []);
  // The description arrives with a reconnect: the index takes it without a new tool definition.
  list = [connected('rail', 'China railway train timetables and tickets'), connected('notes')];
  const hits = await sel.search('train timetable', { limit: 5 });
  assert.deepEqual(
    hits.map((h) => `${h.serverId}/${h.tool}`),
    ['rail/get_tickets'],
  );
});
