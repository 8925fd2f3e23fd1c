/**
 * GeminiProvider with the real @google/genai client against the fake Gemini server: what
 * streams back, what the model is sent, how failures and Stop behave.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  ProviderError,
  type ModelMessage,
  type ModelTool,
  type ProviderEvent,
  type StreamRequest,
} from '../../electron/host/chat/provider.js';
import { GeminiProvider } from '../../electron/host/chat/providers/gemini/gemini-provider.js';
import { qualifyToolNames } from '../../electron/host/chat/tool-names.js';
import type { JsonSchema } from '../../shared/domain/mcp-types.js';
import {
  declarationsOf,
  failure,
  functionCall,
  hold,
  partsOf,
  reply,
  splitText,
  startFakeGemini,
  text,
  thought,
  type FakeGemini,
  type Turn,
} from '../fixtures/fake-gemini.js';

const KEY = 'AIzaFAKE-test-key-0123456789';
const MODEL = 'gemini-2.5-flash';

const SUM_TOOL: ModelTool = {
  name: 'everything__get-sum',
  description: 'Adds two numbers',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    $schema: 'http://json-schema.org/draft-07/schema#',
  },
};
const META_TOOL: ModelTool = {
  name: 'store__put',
  description: 'Stores a record',
  inputSchema: {
    type: 'object',
    properties: {
      key: { type: 'string' },
      metadata: { type: 'object', additionalProperties: true },
      level: { type: 'integer', enum: [1, 2] },
    },
    required: ['key'],
  },
};

const user = (t: string): ModelMessage => ({ role: 'user', parts: [{ type: 'text', text: t }] });

function request(over: Partial<StreamRequest> = {}): StreamRequest {
  return { model: MODEL, messages: [user('hi')], tools: [], signal: new AbortController().signal, ...over };
}

async function collect(provider: GeminiProvider, req: StreamRequest): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const ev of provider.stream(req)) events.push(ev);
  return events;
}

async function failureOf(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ProviderError, `a ProviderError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a failure');
}

describe('GeminiProvider against the fake Gemini API', { timeout: 30_000 }, () => {
  const fakes: FakeGemini[] = [];
  async function fake(
    script: Turn[],
    extra: Partial<Parameters<typeof startFakeGemini>[0]> = {},
  ): Promise<{ fake: FakeGemini; provider: GeminiProvider }> {
    const f = await startFakeGemini({ apiKey: KEY, script, ...extra });
    fakes.push(f);
    return { fake: f, provider: new GeminiProvider({ apiKey: KEY, baseUrl: f.baseUrl }) };
  }
  after(async () => {
    await Promise.all(fakes.map((f) => f.close()));
  });

  it('streams text in several events and sends what a request asked for', async () => {
    const { fake: f, provider } = await fake([
      { ...reply(...splitText('Hello there, streaming world', 3)), chunkDelayMs: 15 },
    ]);
    const events = await collect(provider, request({ system: 'Be brief.', messages: [user('Say hello')] }));
    const texts = events.filter((e) => e.type === 'text');
    assert.ok(texts.length >= 2, `several text events, got ${texts.length}`);
    assert.equal(
      texts.map((e) => (e.type === 'text' ? e.text : '')).join(''),
      'Hello there, streaming world',
    );
    // The usage is the fake's usageMetadata on the last chunk, as Gemini sends it.
    assert.deepEqual(events.at(-1), {
      type: 'done',
      finishReason: 'STOP',
      usage: { inputTokens: 12, outputTokens: 8, totalTokens: 20 },
    });

    const [req] = f.generateRequests();
    assert.ok(req);
    assert.equal(req.action, 'streamGenerateContent');
    assert.equal(req.query.alt, 'sse');
    assert.equal(req.apiVersion, 'v1beta');
    assert.equal(req.model, MODEL);
    assert.equal(req.keyVia, 'header', 'the key travels in x-goog-api-key, not the URL');
    assert.equal(req.query.key, undefined);
    assert.deepEqual(req.body?.systemInstruction?.parts, [{ text: 'Be brief.' }]);
    assert.deepEqual(req.body?.contents, [{ role: 'user', parts: [{ text: 'Say hello' }] }]);
    assert.equal(req.body?.tools, undefined, 'no tools, no tool config');
    assert.deepEqual(req.body?.generationConfig?.thinkingConfig, { includeThoughts: true });
  });

  it('maps thought parts to thinking events', async () => {
    const { provider } = await fake([reply(thought('Pondering the question'), text('The answer'))]);
    const events = await collect(provider, request());
    assert.deepEqual(events.slice(0, 2), [
      { type: 'thinking', text: 'Pondering the question' },
      { type: 'text', text: 'The answer' },
    ]);
  });

  it('returns a function call with its args and signature, and sends the response back paired by id', async () => {
    const { fake: f, provider } = await fake(
      [
        reply(text('Let me add.'), functionCall(SUM_TOOL.name, { a: 2, b: 40 }, { signature: 'c2lnLTE=' })),
        reply(text('It is 42.')),
      ],
      { requireThoughtSignatures: true },
    );
    const events = await collect(
      provider,
      request({ messages: [user('2+40?')], tools: [SUM_TOOL, META_TOOL] }),
    );
    const call = events.find((e) => e.type === 'function_call');
    assert.ok(call && call.type === 'function_call');
    assert.equal(call.name, SUM_TOOL.name);
    assert.deepEqual(call.args, { a: 2, b: 40 });
    assert.equal(call.signature, 'c2lnLTE=');
    assert.match(call.id, /^call_/, 'an id is made up when the model sends none');

    const first = f.generateRequests()[0];
    assert.deepEqual(
      declarationsOf(first).map((d) => d.name),
      [SUM_TOOL.name, META_TOOL.name],
    );
    assert.deepEqual(declarationsOf(first)[0]?.parameters, {
      type: 'OBJECT',
      properties: { a: { type: 'NUMBER' }, b: { type: 'NUMBER' } },
      required: ['a', 'b'],
    });
    assert.equal(first.body?.toolConfig?.functionCallingConfig?.mode, 'AUTO');

    const history: ModelMessage[] = [
      user('2+40?'),
      {
        role: 'model',
        parts: [
          { type: 'text', text: 'Let me add.' },
          {
            type: 'function_call',
            id: call.id,
            name: call.name,
            args: call.args,
            signature: call.signature,
          },
        ],
      },
      {
        role: 'user',
        parts: [
          {
            type: 'function_response',
            id: call.id,
            name: call.name,
            output: { content: '42' },
            isError: false,
          },
        ],
      },
    ];
    const second = await collect(provider, request({ messages: history, tools: [SUM_TOOL, META_TOOL] }));
    assert.deepEqual(second[0], { type: 'text', text: 'It is 42.' });

    const parts = partsOf(f.generateRequests()[1]);
    const sentCall = parts.find((p) => p.part.functionCall);
    assert.equal(sentCall?.role, 'model');
    assert.deepEqual(sentCall?.part, {
      functionCall: { id: call.id, name: SUM_TOOL.name, args: { a: 2, b: 40 } },
      thoughtSignature: 'c2lnLTE=',
    });
    const sentResponse = parts.find((p) => p.part.functionResponse);
    assert.equal(sentResponse?.role, 'user');
    assert.deepEqual(sentResponse?.part, {
      functionResponse: { id: call.id, name: SUM_TOOL.name, response: { output: { content: '42' } } },
    });
  });

  it('sends tool errors as errors, images as inline data, and a placeholder signature for foreign history', async () => {
    const { fake: f, provider } = await fake([reply(text('ok'))], { requireThoughtSignatures: true });
    const history: ModelMessage[] = [
      {
        role: 'user',
        parts: [
          { type: 'text', text: 'look' },
          { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
        ],
      },
      { role: 'model', parts: [{ type: 'function_call', id: 'c1', name: SUM_TOOL.name, args: {} }] },
      {
        role: 'user',
        parts: [
          {
            type: 'function_response',
            id: 'c1',
            name: SUM_TOOL.name,
            output: { error: 'The user denied this tool call.' },
            isError: true,
          },
        ],
      },
      { role: 'model', parts: [] },
    ];
    await collect(provider, request({ messages: history, tools: [SUM_TOOL] }));
    const parts = partsOf(f.generateRequests()[0]).map((p) => p.part);
    assert.deepEqual(parts[1], { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } });
    assert.equal(parts[2]?.thoughtSignature, 'skip_thought_signature_validator');
    assert.deepEqual(parts[3], {
      functionResponse: {
        id: 'c1',
        name: SUM_TOOL.name,
        response: { error: 'The user denied this tool call.' },
      },
    });
    assert.equal(f.generateRequests()[0].body?.contents?.length, 3, 'an empty model turn is not sent');
  });

  it('turns JSON-text and enum-text arguments back into what the tool expects', async () => {
    const { provider } = await fake([
      reply(functionCall(META_TOOL.name, { key: 'k', metadata: '{"tag":"x"}', level: '2' }, { id: 'fc-1' })),
    ]);
    const events = await collect(provider, request({ tools: [META_TOOL] }));
    const call = events.find((e) => e.type === 'function_call');
    assert.ok(call?.type === 'function_call');
    assert.equal(call.id, 'fc-1', 'a model-given id is kept');
    assert.deepEqual(call.args, { key: 'k', metadata: { tag: 'x' }, level: 2 });
  });

  it('declares every tricky fixture schema in a form the API accepts, and honours toolMode none', async () => {
    const tricky = JSON.parse(
      readFileSync(join(import.meta.dirname, '../fixtures/schemas/tricky.json'), 'utf8'),
    ) as { tools: { name: string; inputSchema: JsonSchema }[] };
    const names = qualifyToolNames(tricky.tools.map((t) => ({ serverId: 'tricky', name: t.name })));
    const tools: ModelTool[] = [...names].map(([name, origin]) => ({
      name,
      description: origin.tool,
      inputSchema: tricky.tools.find((t) => t.name === origin.tool)!.inputSchema,
    }));
    const { fake: f, provider } = await fake([reply(text('fine'))]);
    const events = await collect(provider, request({ tools, toolMode: 'none' }));
    assert.equal(events.at(-1)?.type, 'done', 'the fake (which validates declarations) accepted the request');
    const req = f.generateRequests()[0];
    assert.equal(declarationsOf(req).length, tricky.tools.length);
    assert.equal(req.body?.toolConfig?.functionCallingConfig?.mode, 'NONE');
  });

  it('maps 503 and 429 to retryable errors', async () => {
    const { provider } = await fake([failure(503), failure(429)]);
    const unavailable = await failureOf(collect(provider, request()));
    assert.equal(unavailable.retryable, true);
    assert.equal(unavailable.status, 503);
    assert.match(unavailable.message, /503 UNAVAILABLE.*overloaded/);
    const limited = await failureOf(collect(provider, request()));
    assert.equal(limited.retryable, true);
    assert.equal(limited.status, 429);
    assert.match(limited.message, /quota/);
  });

  it('maps an error event in the middle of a stream to a retryable error after the text so far', async () => {
    const { provider } = await fake([{ ...reply(text('partial')), failAfterChunks: { status: 500 } }]);
    const seen: ProviderEvent[] = [];
    const error = await failureOf(
      (async () => {
        for await (const ev of provider.stream(request())) seen.push(ev);
      })(),
    );
    assert.deepEqual(seen, [{ type: 'text', text: 'partial' }]);
    assert.equal(error.retryable, true);
    assert.equal(error.status, 500);
  });

  it('maps 401 and a rejected key to errors that are not retried and never contain the key', async () => {
    const { fake: f } = await fake([failure(401)]);
    const e401 = await failureOf(collect(new GeminiProvider({ apiKey: KEY, baseUrl: f.baseUrl }), request()));
    assert.equal(e401.retryable, false);
    assert.equal(e401.status, 401);
    assert.match(e401.message, /401 UNAUTHENTICATED/);
    assert.equal(e401.message.includes(KEY), false);

    const wrongKey = 'AIzaWRONG-key-9876543210';
    const bad = await failureOf(
      collect(new GeminiProvider({ apiKey: wrongKey, baseUrl: f.baseUrl }), request()),
    );
    assert.equal(bad.retryable, false);
    assert.equal(bad.status, 400);
    assert.match(bad.message, /API key was rejected/);
    assert.equal(bad.message.includes(wrongKey), false);

    const { fake: strict } = await fake([], { badKeyStatus: 401 });
    const e = await failureOf(new GeminiProvider({ apiKey: wrongKey, baseUrl: strict.baseUrl }).listModels());
    assert.equal(e.status, 401);
    assert.equal(e.retryable, false);
    assert.equal(e.message.includes(wrongKey), false);
  });

  it('maps an unreachable endpoint to a retryable error', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const error = await failureOf(
      collect(new GeminiProvider({ apiKey: KEY, baseUrl: `http://127.0.0.1:${port}` }), request()),
    );
    assert.equal(error.retryable, true);
    assert.match(error.message, /Could not reach the Gemini API at 127\.0\.0\.1/);
  });

  it('stops promptly on abort mid-stream, and the server sees the disconnect', async () => {
    const { fake: f, provider } = await fake([hold(text('thinking out loud'))]);
    const controller = new AbortController();
    const seen: ProviderEvent[] = [];
    const started = Date.now();
    const error = await failureOf(
      (async () => {
        for await (const ev of provider.stream(request({ signal: controller.signal }))) {
          seen.push(ev);
          controller.abort();
        }
      })(),
    );
    assert.ok(Date.now() - started < 2000, 'stopped promptly');
    assert.deepEqual(seen, [{ type: 'text', text: 'thinking out loud' }]);
    assert.equal(error.retryable, false);
    assert.equal(await f.generateRequests()[0].closed, 'client-disconnected');
  });

  it('closes the stream when the consumer stops reading without aborting', async () => {
    const { fake: f, provider } = await fake([hold(text('one'), text('two'))]);
    for await (const ev of provider.stream(request())) {
      if (ev.type === 'text') break;
    }
    assert.equal(await f.generateRequests()[0].closed, 'client-disconnected');
  });

  it('lists the models that can generate content, across pages, without the models/ prefix', async () => {
    const { provider } = await fake([]);
    const models = await provider.listModels();
    assert.deepEqual(models, ['gemini-2.5-flash', 'gemini-2.5-pro', 'gemini-2.0-flash']);

    const many = Array.from({ length: 130 }, (_, i) => ({
      name: `models/m-${i}`,
      supportedGenerationMethods: ['generateContent'],
    }));
    const { fake: f, provider: p2 } = await fake([], { models: many });
    assert.equal((await p2.listModels()).length, 130);
    assert.ok(f.requests.filter((r) => r.action === 'listModels').length >= 2, 'followed nextPageToken');
    assert.equal(provider.maxTools, 128);
  });
});
