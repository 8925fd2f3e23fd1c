/**
 * Tool search through the real host: real stdio servers (200 fixture tools, server-everything,
 * the rug-pull fixture), the real @google/genai client against the wire-exact fake Gemini and
 * the OpenAI-compatible provider against the fake OpenAI server (which also serves
 * /v1/embeddings). The first request declares a bounded core plus search_tools; the model's
 * search declares the hit from its next request; list_changed reaches the index; a tool that
 * changed since pinned is never offered by search; tool vectors are fetched once and survive a
 * restart.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { ChatEvent } from '../../shared/domain/chat.js';
import type { OfferReport } from '../../shared/domain/tool-selection.js';
import { declarationsOf, functionCall, reply, text, type FakeGemini } from '../fixtures/fake-gemini.js';
import { startFakeOpenAi, textDeltas, toolCallDeltas, type FakeOpenAi } from '../fixtures/fake-openai.js';
import { fakeModelOverrides, startFakeModel } from '../helpers/fake-model.js';
import {
  CleanupStack,
  createTestHost,
  nodeServer,
  REPO_ROOT,
  SERVERS,
  waitFor,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';

const KEY = 'fake-key-for-tool-search';
const stack = new CleanupStack();
let gemini: FakeGemini;
let openai: FakeOpenAi;
let h: TestHost;

const servers = {
  many: nodeServer(join(REPO_ROOT, 'tests/fixtures/many-tools-server.mjs'), [], {
    env: { TOOL_COUNT: '200' },
  }),
  everything: nodeServer(SERVERS.everything, ['stdio'], { trust: 'trusted' }),
  rug: nodeServer(join(REPO_ROOT, 'tests/fixtures/rug-pull-server.mjs'), [], { trust: 'trusted' }),
};

before(async () => {
  gemini = await startFakeModel(stack, KEY);
  openai = await startFakeOpenAi({ script: [] });
  stack.defer(() => openai.close());
  h = await createTestHost(stack, { servers, providerOverrides: fakeModelOverrides(gemini, KEY) });
  for (const id of Object.keys(servers)) await waitForState(h.host, id, 'connected');
});
after(() => stack.run());

/** The offers a run announced, in order. */
function offers(t: TestHost, conversationId: string): OfferReport[] {
  const seen: OfferReport[] = [];
  const off = t.chat.onEvent((id, ev: ChatEvent) => {
    if (id === conversationId && ev.type === 'offer') seen.push(ev.offer);
  });
  stack.defer(off);
  return seen;
}

test('Gemini: the first request declares at most 32 tools plus search_tools; a search declares the hit for the next request, which the model then calls', async () => {
  gemini.enqueue(
    reply(functionCall('search_tools', { query: 'add two numbers and return the sum' }, { id: 's1' })),
    reply(functionCall('everything__get-sum', { a: 2, b: 3 }, { id: 'c1' })),
    reply(text('The sum is 5.')),
  );
  const before = gemini.generateRequests().length;
  const conv = await h.chat.create();
  const seen = offers(h, conv.id);
  const { done } = await h.chat.send(conv.id, 'hello there');
  assert.equal((await done).reason, 'done');
  const [first, second, third] = gemini
    .generateRequests()
    .slice(before)
    .map((r) => declarationsOf(r));
  const names1 = first.map((d) => d.name);
  assert.ok(names1.includes('search_tools'), 'the search tool is declared');
  assert.ok(names1.length <= 33, `${names1.length} declarations on the first request`);
  assert.ok(!names1.includes('everything__get-sum'), 'get-sum is not declared before the search');
  const names2 = second.map((d) => d.name);
  assert.ok(names2.includes('everything__get-sum'), 'the hit is declared on the next request');
  assert.ok(names2.length <= 33);
  // The core keeps its order: the second request starts with the first request's tools.
  assert.deepEqual(names2.slice(0, names1.length), names1);
  assert.ok(third.map((d) => d.name).includes('everything__get-sum'));

  const stored = await h.chat.get(conv.id);
  const calls = stored.messages.flatMap((m) =>
    m.parts.flatMap((p) => (p.type === 'tool_call' ? [p.call] : [])),
  );
  assert.equal(calls[0].host, 'tool-search');
  assert.equal(calls[0].status, 'done');
  assert.match(JSON.stringify(calls[0].result?.structuredContent), /get-sum/);
  assert.equal(calls[1].tool, 'get-sum');
  assert.equal(calls[1].status, 'done');
  assert.match(JSON.stringify(calls[1].result?.content), /5/);
  // Offers were announced per request: the second one holds the find, with the words searched for.
  assert.ok(seen.length >= 2);
  const found = seen[1].tools.find((t) => t.tool === 'get-sum');
  assert.equal(found?.reason, 'found');
  assert.equal(found?.query, 'add two numbers and return the sum');
  assert.ok(seen.every((o) => o.tokens > 0 && o.tools.length <= 32 && o.cap === 128));
});

test('OpenAI-compatible: the same loop, search then call, within the budget', async () => {
  const fake = await startFakeOpenAi({
    script: [
      {
        deltas: toolCallDeltas(0, 'call_s', 'search_tools', JSON.stringify({ query: 'echo a message back' })),
      },
      { deltas: toolCallDeltas(0, 'call_e', 'everything__echo', JSON.stringify({ message: 'hi' })) },
      { deltas: textDeltas('Echoed.') },
    ],
  });
  stack.defer(() => fake.close());
  const o = await createTestHost(stack, { servers });
  for (const id of Object.keys(servers)) await waitForState(o.host, id, 'connected');
  await o.settings.update({ provider: 'openai', openaiBaseUrl: fake.baseUrl, openaiModel: 'llama3.2' });
  const conv = await o.chat.create();
  const { done } = await o.chat.send(conv.id, 'hello there');
  assert.equal((await done).reason, 'done');
  const chats = fake.requests.filter((r) => r.body?.messages);
  const names = chats.map((r) => (r.body?.tools ?? []).map((t) => t.function.name));
  assert.equal(names.length, 3);
  assert.ok(names[0].includes('search_tools') && !names[0].includes('everything__echo'));
  assert.ok(names[1].includes('everything__echo'));
  assert.ok(names.every((n) => n.length <= 33));
  const stored = await o.chat.get(conv.id);
  const echo = stored.messages
    .flatMap((m) => m.parts.flatMap((p) => (p.type === 'tool_call' ? [p.call] : [])))
    .find((c) => c.tool === 'echo');
  assert.equal(echo?.status, 'done');
});

test('list_changed reaches the index; a changed tool awaiting review is shown with its flag but never offered by search', async () => {
  const settings = h.settings.get();
  const before = await h.selection.search('ssh key faster', { limit: 5, settings });
  assert.ok(
    !before.some((x) => x.serverId === 'rug' && x.tool === 'fetch-page' && x.terms.includes('faster')),
  );
  await h.host.callTool('rug', 'flip', {});
  // The flipped description ("... so the page loads faster") is searchable once the list reloads.
  const hit = await waitFor('the flipped description in the index', async () => {
    const hits = await h.selection.search('page loads faster', { limit: 5 });
    return hits.find((x) => x.serverId === 'rug' && x.tool === 'fetch-page' && x.terms.includes('faster'));
  });
  assert.equal(hit.awaitingReview, true);
  assert.ok(hit.warnings?.length, 'its warnings travel with the hit');

  const conv = await h.chat.create();
  const plan = await h.selection.planRun({
    settings,
    cap: 128,
    messages: [
      {
        id: 'u',
        role: 'user',
        parts: [{ type: 'text', text: 'fetch the page so it loads faster' }],
        createdAt: 0,
      },
    ],
  });
  assert.ok(!plan.report?.tools.some((t) => t.serverId === 'rug' && t.tool === 'fetch-page'));
  const result = await plan.search!.run({ query: 'fetch a web page and return its text' });
  assert.ok(!JSON.stringify(result.structuredContent).includes('"fetch-page"'));
  assert.ok(!plan.tools.some((t) => t.name === 'rug__fetch-page'));
  await h.chat.delete(conv.id);

  await h.host.callTool('rug', 'hide', {});
  await waitFor('the hidden tool to leave the index', async () => {
    const hits = await h.selection.search('page loads faster', { limit: 5 });
    return hits.some((x) => x.serverId === 'rug' && x.tool === 'fetch-page') ? undefined : true;
  });
});

test('semantic ranking: tool vectors are fetched once, and a restarted host embeds only the query', async () => {
  const dataDir = join(h.dir, 'embed-data');
  const embedServers = { everything: servers.everything };
  const start = async () => {
    const t = await createTestHost(stack, { servers: embedServers, dataDir });
    await waitForState(t.host, 'everything', 'connected');
    await t.settings.update({
      provider: 'openai',
      openaiBaseUrl: openai.baseUrl,
      semanticRanking: true,
      embeddingModel: 'fake-embed',
    });
    return t;
  };
  const a = await start();
  const toolCount = a.host.catalog().tools.length;
  const hits = await a.selection.search('echo the message back', {
    limit: 5,
    settings: a.settings.get(),
    semantic: true,
  });
  assert.equal(a.selection.semanticError, undefined);
  assert.ok(
    hits.some((x) => x.semanticRank !== undefined),
    'semantic ranks took part',
  );
  const embedded = openai.embeddings.flatMap((e) => e.input);
  assert.equal(embedded.length, toolCount + 1, 'every tool once, and the query');
  assert.ok(openai.embeddings.every((e) => e.model === 'fake-embed'));
  await a.selection.search('echo the message back', { limit: 5, settings: a.settings.get(), semantic: true });
  assert.equal(
    openai.embeddings.flatMap((e) => e.input).length,
    toolCount + 1,
    'nothing again in the same run',
  );

  const b = await start();
  const seen = openai.embeddings.length;
  await b.selection.search('echo the message back', { limit: 5, settings: b.settings.get(), semantic: true });
  const after = openai.embeddings.slice(seen).flatMap((e) => e.input);
  assert.deepEqual(
    after,
    ['echo the message back'],
    'after a restart only the query is embedded: 0 tool embeddings',
  );
});
