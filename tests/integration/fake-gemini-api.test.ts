/**
 * The fake Gemini server itself (tests/fixtures/fake-gemini.ts), without the client: it must
 * answer and refuse the way the real API does, or the provider tests prove nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { reply, startFakeGemini, text, type FakeGemini } from '../fixtures/fake-gemini.js';

const KEY = 'AIzaFAKE-test-key-0123456789';
const MODEL = 'gemini-2.5-flash';

describe('the fake Gemini API itself', () => {
  let f: FakeGemini;
  before(async () => {
    f = await startFakeGemini({ apiKey: KEY, script: [reply(text('a'), text('b'))] });
  });
  after(() => f.close());

  it('serves the unary generateContent form and rejects bad declarations like the real API', async () => {
    const res = await fetch(`${f.baseUrl}/v1/models/${MODEL}:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'x' }] }] }),
    });
    const body = (await res.json()) as {
      candidates: { content: { parts: { text: string }[] }; finishReason: string }[];
    };
    assert.deepEqual(body.candidates[0]?.content.parts, [{ text: 'ab' }]);
    assert.equal(body.candidates[0]?.finishReason, 'STOP');

    const bad = await fetch(`${f.baseUrl}/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`, {
      method: 'POST',
      headers: { 'x-goog-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({
        contents: [{ role: 'user', parts: [{ text: 'x' }] }],
        tools: [{ functionDeclarations: [{ name: 't', parameters: { type: 'object', properties: {} } }] }],
      }),
    });
    assert.equal(bad.status, 400);
    const error = (await bad.json()) as { error: { code: number; status: string; message: string } };
    assert.equal(error.error.status, 'INVALID_ARGUMENT');
    assert.match(error.error.message, /function_declarations\[0\]\.parameters\.type/);

    const noKey = await fetch(`${f.baseUrl}/v1beta/models`);
    assert.equal(noKey.status, 403);
  });

  it('answers embedContent and batchEmbedContents in the real shapes, and refuses what the real API refuses', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${f.baseUrl}/v1beta/models/${path}`, {
        method: 'POST',
        headers: { 'x-goog-api-key': KEY, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const content = (text: string) => ({ parts: [{ text }] });
    const one = (await (
      await post('gemini-embedding-001:embedContent', { content: content('a'), outputDimensionality: 8 })
    ).json()) as { embedding: { values: number[] } };
    assert.equal(one.embedding.values.length, 8);
    const many = await post('gemini-embedding-001:batchEmbedContents', {
      requests: ['a', 'b'].map((t) => ({ model: 'models/gemini-embedding-001', content: content(t) })),
    });
    const batch = (await many.json()) as { embeddings: { values: number[] }[] };
    assert.deepEqual(
      batch.embeddings.map((e) => e.values.length),
      [3072, 3072],
    );
    const notEmbedding = await post(`${MODEL}:batchEmbedContents`, {
      requests: [{ model: `models/${MODEL}`, content: content('a') }],
    });
    assert.equal(notEmbedding.status, 404);
    const badTask = await post('gemini-embedding-001:embedContent', {
      content: content('a'),
      taskType: 'NOPE',
    });
    assert.equal(badTask.status, 400);
    assert.match(((await badTask.json()) as { error: { message: string } }).error.message, /task_type/);
  });
});
