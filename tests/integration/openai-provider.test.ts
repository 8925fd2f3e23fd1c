/**
 * OpenAiProvider (Ollama, LM Studio, any /v1/chat/completions server) against a fake
 * OpenAI-compatible server: streamed text, a tool call split across deltas, history mapping,
 * errors, models.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  ProviderError,
  type ModelMessage,
  type ModelTool,
  type ProviderEvent,
  type StreamRequest,
} from '../../electron/host/chat/provider.js';
import { OpenAiProvider } from '../../electron/host/chat/providers/openai-provider.js';
import { toOpenAiMessages } from '../../electron/host/chat/providers/openai-request.js';
import {
  startFakeOpenAi,
  textDeltas,
  toolCallDeltas,
  type FakeOpenAi,
  type OpenAiTurn,
} from '../fixtures/fake-openai.js';

const TOOL: ModelTool = {
  name: 'fs__read_file',
  description: 'Reads a file',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    $defs: { p: { type: 'string', description: 'A path' } },
    properties: { path: { $ref: '#/$defs/p' }, head: { type: 'number' } },
    required: ['path'],
  },
};

const request = (over: Partial<StreamRequest> = {}): StreamRequest => ({
  model: 'llama3.2',
  messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
  tools: [],
  signal: new AbortController().signal,
  ...over,
});

async function collect(provider: OpenAiProvider, req: StreamRequest): Promise<ProviderEvent[]> {
  const out: ProviderEvent[] = [];
  for await (const ev of provider.stream(req)) out.push(ev);
  return out;
}

describe('OpenAiProvider against a fake OpenAI-compatible server', { timeout: 20_000 }, () => {
  const fakes: FakeOpenAi[] = [];
  const start = async (script: OpenAiTurn[], apiKey?: string) => {
    const f = await startFakeOpenAi({ script, ...(apiKey ? { apiKey } : {}) });
    fakes.push(f);
    return f;
  };
  after(() => Promise.all(fakes.map((f) => f.close())));

  it('streams text in several events', async () => {
    const f = await start([
      { deltas: [{ reasoning_content: 'hmm' }, ...textDeltas('Hel', 'lo ', 'there')], chunkDelayMs: 5 },
    ]);
    const events = await collect(
      new OpenAiProvider({ baseUrl: f.baseUrl }),
      request({ system: 'Be brief.' }),
    );
    assert.deepEqual(events, [
      { type: 'thinking', text: 'hmm' },
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo ' },
      { type: 'text', text: 'there' },
      // From the usage chunk the fake sends only because stream_options.include_usage asked for it.
      { type: 'done', finishReason: 'stop', usage: { inputTokens: 20, outputTokens: 5, totalTokens: 25 } },
    ]);
    const body = f.requests[0]?.body;
    assert.equal(body?.stream, true);
    assert.deepEqual(body?.stream_options, { include_usage: true });
    assert.equal(body?.model, 'llama3.2');
    assert.deepEqual(body?.messages, [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi' },
    ]);
    assert.equal(body?.tools, undefined);
    assert.equal(body?.tool_choice, undefined, 'no tool_choice without tools (some servers reject it)');
    assert.equal(f.requests[0]?.authorization, undefined);
  });

  it('assembles a tool call streamed across deltas, and declares tools with refs inlined', async () => {
    const f = await start([
      {
        deltas: [
          ...textDeltas('Reading.'),
          ...toolCallDeltas(0, 'call_abc', TOOL.name, '{"path": "/tmp/a.txt", "head": 3}', 4),
        ],
      },
    ]);
    const events = await collect(new OpenAiProvider({ baseUrl: f.baseUrl }), request({ tools: [TOOL] }));
    assert.deepEqual(events, [
      { type: 'text', text: 'Reading.' },
      { type: 'function_call', id: 'call_abc', name: TOOL.name, args: { path: '/tmp/a.txt', head: 3 } },
      {
        type: 'done',
        finishReason: 'tool_calls',
        usage: { inputTokens: 20, outputTokens: 3, totalTokens: 23 },
      },
    ]);
    const tool = f.requests[0]?.body?.tools?.[0];
    assert.equal(tool?.type, 'function');
    assert.equal(tool?.function.name, TOOL.name);
    assert.deepEqual(tool?.function.parameters, {
      type: 'object',
      properties: { path: { type: 'string', description: 'A path' }, head: { type: 'number' } },
      required: ['path'],
    });
    assert.equal(f.requests[0]?.body?.tool_choice, 'auto');
  });

  it('assembles two parallel tool calls by index and makes up a missing id', async () => {
    const interleaved = [
      { tool_calls: [{ index: 0, function: { name: 'a__x', arguments: '{"n":' } }] },
      { tool_calls: [{ index: 1, id: 'call_2', function: { name: 'b__y', arguments: '{}' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '1}' } }] },
    ];
    const f = await start([{ deltas: interleaved }]);
    const events = await collect(new OpenAiProvider({ baseUrl: f.baseUrl }), request({ tools: [TOOL] }));
    const calls = events.filter((e) => e.type === 'function_call');
    assert.equal(calls.length, 2);
    assert.deepEqual(
      calls.map((c) => c.type === 'function_call' && [c.name, c.args]),
      [
        ['a__x', { n: 1 }],
        ['b__y', {}],
      ],
    );
    assert.ok(calls[0]?.type === 'function_call' && calls[0].id.startsWith('call_'));
  });

  it('maps history: assistant tool_calls, tool messages by tool_call_id, images, and sends the key', async () => {
    const f = await start([{ deltas: textDeltas('done') }], 'sk-local-secret');
    const history: ModelMessage[] = [
      {
        role: 'user',
        parts: [
          { type: 'text', text: 'read it' },
          { type: 'image', mimeType: 'image/png', data: 'AAAA' },
        ],
      },
      {
        role: 'model',
        parts: [
          { type: 'text', text: 'ok' },
          { type: 'function_call', id: 'call_1', name: TOOL.name, args: { path: '/a' } },
        ],
      },
      {
        role: 'user',
        parts: [
          {
            type: 'function_response',
            id: 'call_1',
            name: TOOL.name,
            output: { content: 'text' },
            isError: false,
          },
          { type: 'text', text: 'and?' },
        ],
      },
    ];
    await collect(
      new OpenAiProvider({ baseUrl: f.baseUrl, apiKey: 'sk-local-secret' }),
      request({ messages: history, tools: [TOOL], toolMode: 'none' }),
    );
    assert.equal(f.requests[0]?.authorization, 'Bearer sk-local-secret');
    assert.equal(f.requests[0]?.body?.tool_choice, 'none');
    assert.deepEqual(f.requests[0]?.body?.messages, [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'read it' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        ],
      },
      {
        role: 'assistant',
        content: 'ok',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: TOOL.name, arguments: '{"path":"/a"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"content":"text"}' },
      { role: 'user', content: 'and?' },
    ]);
    assert.deepEqual(
      toOpenAiMessages(undefined, [
        {
          role: 'user',
          parts: [{ type: 'function_response', id: 'x', name: 'n', output: 'denied', isError: true }],
        },
      ]),
      [{ role: 'tool', tool_call_id: 'x', content: 'denied' }],
    );
  });

  it('accepts a server that ignores stream: true', async () => {
    const f = await start([{ deltas: textDeltas('whole ', 'answer'), json: true }]);
    const events = await collect(new OpenAiProvider({ baseUrl: f.baseUrl }), request());
    assert.deepEqual(events, [
      { type: 'text', text: 'whole answer' },
      { type: 'done', finishReason: 'stop', usage: { inputTokens: 20, outputTokens: 5, totalTokens: 25 } },
    ]);
  });

  it('maps errors: 401 not retried and without the key, 503 retried, unreachable retried', async () => {
    const f = await start([{ error: { status: 503, message: 'model is loading' } }], 'right-key');
    const bad = await collect(
      new OpenAiProvider({ baseUrl: f.baseUrl, apiKey: 'wrong-key-123' }),
      request(),
    ).catch((e: unknown) => e);
    assert.ok(bad instanceof ProviderError);
    assert.equal(bad.retryable, false);
    assert.equal(bad.status, 401);
    assert.match(bad.message, /Incorrect API key provided.*Check the API key/);
    assert.equal(bad.message.includes('wrong-key-123'), false);

    const busy = await collect(
      new OpenAiProvider({ baseUrl: f.baseUrl, apiKey: 'right-key' }),
      request(),
    ).catch((e: unknown) => e);
    assert.ok(busy instanceof ProviderError);
    assert.equal(busy.retryable, true);
    assert.match(busy.message, /503.*model is loading/);

    const gone = await collect(new OpenAiProvider({ baseUrl: 'http://127.0.0.1:1/v1' }), request()).catch(
      (e: unknown) => e,
    );
    assert.ok(gone instanceof ProviderError);
    assert.equal(gone.retryable, true);
    assert.match(gone.message, /Could not reach the model server at 127\.0\.0\.1:1/);
  });

  it('stops promptly when the signal aborts mid-stream', async () => {
    const f = await start([{ deltas: textDeltas('partial'), holdOpen: true }]);
    const controller = new AbortController();
    const seen: ProviderEvent[] = [];
    const started = Date.now();
    const error = await (async () => {
      for await (const ev of new OpenAiProvider({ baseUrl: f.baseUrl }).stream(
        request({ signal: controller.signal }),
      )) {
        seen.push(ev);
        controller.abort();
      }
    })().catch((e: unknown) => e);
    assert.ok(error instanceof ProviderError);
    assert.equal(error.retryable, false);
    assert.deepEqual(seen, [{ type: 'text', text: 'partial' }]);
    assert.ok(Date.now() - started < 2000);
  });

  it('lists models', async () => {
    const f = await start([]);
    assert.deepEqual(await new OpenAiProvider({ baseUrl: `${f.baseUrl}/` }).listModels(), [
      'llama3.2',
      'qwen3:8b',
    ]);
  });
});
