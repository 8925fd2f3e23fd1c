/**
 * A smoke test against the real Gemini API, run only when GEMINI_API_KEY is set (the key is
 * read here, by the test, and handed to the provider: the provider never reads env). It
 * proves what the fake cannot: that Google still accepts what we send.
 * GEMINI_LIVE_MODEL picks the model (default gemini-2.5-flash, a cheap one).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type {
  ModelMessage,
  ModelTool,
  ProviderEvent,
  StreamRequest,
} from '../../electron/host/chat/provider.js';
import { GeminiProvider } from '../../electron/host/chat/providers/gemini/gemini-provider.js';

const KEY = process.env.GEMINI_API_KEY?.trim();
const MODEL = process.env.GEMINI_LIVE_MODEL?.trim() || 'gemini-2.5-flash';
const SKIP = KEY ? false : 'GEMINI_API_KEY is not set: live Gemini smoke test skipped';

const ADD: ModelTool = {
  name: 'live__add_numbers',
  description: 'Adds two integers and returns their sum. Always use this tool for arithmetic.',
  inputSchema: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      a: { type: 'integer', description: 'First addend' },
      b: { type: 'integer', description: 'Second addend' },
    },
    required: ['a', 'b'],
    additionalProperties: false,
  },
};

async function collect(
  provider: GeminiProvider,
  req: Omit<StreamRequest, 'signal' | 'model'>,
): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const ev of provider.stream({ model: MODEL, signal: AbortSignal.timeout(60_000), ...req }))
    events.push(ev);
  return events;
}

const textOf = (events: ProviderEvent[]) => events.map((e) => (e.type === 'text' ? e.text : '')).join('');

describe('live Gemini API', { timeout: 120_000 }, () => {
  const provider = new GeminiProvider({ apiKey: KEY ?? '' });

  it('lists models including the one under test', { skip: SKIP }, async () => {
    const models = await provider.listModels();
    assert.ok(models.includes(MODEL), `${MODEL} in ${models.join(', ')}`);
  });

  it('streams a short answer', { skip: SKIP }, async () => {
    const events = await collect(provider, {
      system: 'You are terse.',
      messages: [
        {
          role: 'user',
          parts: [{ type: 'text', text: 'Reply with exactly the word "pong" and nothing else.' }],
        },
      ],
      tools: [],
    });
    assert.match(textOf(events), /pong/i);
    assert.equal(events.at(-1)?.type, 'done');
  });

  it('makes a function call and answers from the function response', { skip: SKIP }, async () => {
    const history: ModelMessage[] = [
      { role: 'user', parts: [{ type: 'text', text: 'What is 17 + 25? Use the add tool.' }] },
    ];
    const first = await collect(provider, { messages: history, tools: [ADD] });
    const call = first.find((e) => e.type === 'function_call');
    assert.ok(call?.type === 'function_call', `a function call, got ${JSON.stringify(first)}`);
    assert.equal(call.name, ADD.name);
    assert.deepEqual({ a: Number(call.args.a), b: Number(call.args.b) }, { a: 17, b: 25 });

    history.push(
      {
        role: 'model',
        parts: [
          {
            type: 'function_call',
            id: call.id,
            name: call.name,
            args: call.args,
            ...(call.signature ? { signature: call.signature } : {}),
          },
        ],
      },
      {
        role: 'user',
        parts: [
          { type: 'function_response', id: call.id, name: call.name, output: { sum: 42 }, isError: false },
        ],
      },
    );
    const second = await collect(provider, { messages: history, tools: [ADD] });
    assert.match(textOf(second), /42/);
  });
});
