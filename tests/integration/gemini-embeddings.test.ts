/**
 * Gemini embeddings: GeminiProvider.embed with the real @google/genai client against the fake
 * Gemini, which answers batchEmbedContents (what the client posts in Gemini API mode) as the
 * real API does; and semantic tool ranking through the host with Gemini as the provider: every
 * tool embedded once as a document, the query as a query, and a restarted host embeds no tool.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ProviderError } from '../../electron/host/chat/provider.js';
import { GeminiProvider } from '../../electron/host/chat/providers/gemini/gemini-provider.js';
import { startFakeGemini, type FakeGemini } from '../fixtures/fake-gemini.js';
import { fakeModelOverrides } from '../helpers/fake-model.js';
import {
  CleanupStack,
  createTestHost,
  nodeServer,
  SERVERS,
  tempDir,
  waitForState,
} from '../helpers/host-harness.js';

const KEY = 'AIzaFAKE-embeddings-key-0123456789';
const MODEL = 'gemini-embedding-001';
const stack = new CleanupStack();
let fake: FakeGemini;
let provider: GeminiProvider;

before(async () => {
  fake = await startFakeGemini({ apiKey: KEY });
  stack.defer(() => fake.close());
  provider = new GeminiProvider({ apiKey: KEY, baseUrl: fake.baseUrl });
});
after(() => stack.run());

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return dot / (Math.hypot(...a) * Math.hypot(...b));
}

test('embed(): one batchEmbedContents request, texts as documents, a search text as a query, vectors in order', async () => {
  const before = fake.requests.length;
  const docs = await provider.embed(['read a text file from disk', 'convert currency exchange rates'], MODEL);
  assert.equal(docs.length, 2);
  assert.equal(docs[0].length, 3072, "gemini-embedding-001's default size");
  const sent = fake.requests.slice(before);
  assert.deepEqual(
    sent.map((r) => [r.method, r.path, r.keyVia]),
    [['POST', `/v1beta/models/${MODEL}:batchEmbedContents`, 'header']],
  );
  const requests = sent[0].body?.requests as { model: string; content: { parts: { text: string }[] } }[];
  assert.deepEqual(
    requests.map((r) => [r.model, r.content.parts[0].text]),
    [
      [`models/${MODEL}`, 'read a text file from disk'],
      [`models/${MODEL}`, 'convert currency exchange rates'],
    ],
  );
  assert.deepEqual(
    fake.embedded.slice(-2).map((e) => e.taskType),
    ['RETRIEVAL_DOCUMENT', 'RETRIEVAL_DOCUMENT'],
  );

  const [query] = await provider.embed(['read the file'], MODEL, { purpose: 'query' });
  assert.equal(fake.embedded.at(-1)?.taskType, 'RETRIEVAL_QUERY');
  assert.ok(cosine(query, docs[0]) > cosine(query, docs[1]), 'the vectors answer in the order asked');
});

test('embed(): the API refusing comes back as a ProviderError with its message', async () => {
  await assert.rejects(
    provider.embed(['x'], 'gemini-2.5-flash'),
    (e: unknown) => e instanceof ProviderError && /not supported for batchEmbedContents/.test(e.message),
  );
  const tooMany = Array.from({ length: 101 }, (_, i) => `text ${i}`);
  await assert.rejects(
    provider.embed(tooMany, MODEL),
    (e: unknown) => e instanceof ProviderError && /at most 100 requests can be in one batch/.test(e.message),
  );
  const wrongKey = new GeminiProvider({ apiKey: 'AIzaWRONG', baseUrl: fake.baseUrl });
  await assert.rejects(wrongKey.embed(['x'], MODEL), (e: unknown) => e instanceof ProviderError);
});

test('semantic ranking with Gemini: tool vectors are fetched once, and a restarted host embeds only the query', async () => {
  const servers = { everything: nodeServer(SERVERS.everything, ['stdio'], { trust: 'trusted' }) };
  const dataDir = join(await tempDir(stack), 'data');
  const start = async () => {
    const t = await createTestHost(stack, {
      servers,
      dataDir,
      providerOverrides: fakeModelOverrides(fake, KEY),
    });
    await waitForState(t.host, 'everything', 'connected');
    await t.settings.update({ provider: 'gemini', semanticRanking: true });
    return t;
  };
  const search = (t: Awaited<ReturnType<typeof start>>) =>
    t.selection.search('echo the message back', { limit: 5, settings: t.settings.get(), semantic: true });

  const a = await start();
  const toolCount = a.host.catalog().tools.length;
  const seen = fake.embedded.length;
  const requestsBefore = fake.requests.length;
  const hits = await search(a);
  assert.equal(a.selection.semanticError, undefined);
  assert.ok(
    hits.some((x) => x.semanticRank !== undefined),
    'semantic ranks took part',
  );
  const first = fake.embedded.slice(seen);
  assert.equal(first.length, toolCount + 1, 'every tool once, and the query');
  assert.equal(first.filter((e) => e.taskType === 'RETRIEVAL_DOCUMENT').length, toolCount);
  assert.deepEqual(
    first.filter((e) => e.taskType === 'RETRIEVAL_QUERY').map((e) => e.text),
    ['echo the message back'],
  );
  const models = fake.requests
    .slice(requestsBefore)
    .filter((r) => r.action === 'batchEmbedContents')
    .map((r) => r.model);
  assert.ok(models.length >= 2, `${models.length} embedding requests`);
  assert.ok(
    models.every((m) => m === MODEL),
    "the provider's default embedding model",
  );

  const restartedAt = fake.embedded.length;
  const b = await start();
  await search(b);
  assert.deepEqual(
    fake.embedded.slice(restartedAt).map((e) => e.text),
    ['echo the message back'],
    'after a restart only the query is embedded: 0 tool embeddings',
  );
});
