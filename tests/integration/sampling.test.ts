/**
 * Sampling end to end: real servers ask, a "person" answers through the real pending queue
 * (as the UI does), and the real @google/genai client runs against the fake Gemini.
 * server-everything's trigger-sampling-request over stdio and Streamable HTTP; consent,
 * rate limit and review timeout; and the 2026-07-28 input_required round of the modern fixture.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { PendingResponse, SamplingRequestView } from '../../shared/domain/pending.js';
import { SamplingConsentStore } from '../../electron/host/policies/sampling-consent-store.js';
import {
  declarationsOf,
  functionCall,
  functionResponsesOf,
  reply,
  text,
  type FakeGemini,
  type RecordedRequest,
} from '../fixtures/fake-gemini.js';
import { fakeModelOverrides, startFakeModel } from '../helpers/fake-model.js';
import {
  addEverything,
  CleanupStack,
  createModernHost,
  createTestHost,
  nodeServer,
  SERVERS,
  textOf,
  waitFor,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';

const KEY = 'fake-key-for-sampling-tests';
type Answer = Extract<PendingResponse, { kind: 'sampling' }>;

/** The fake model answers "FAKE:" and the last user text it was sent, so edits are visible. */
function lastUserText(r: RecordedRequest): string {
  const users = (r.body?.contents ?? []).filter((c) => c.role === 'user');
  const parts = users.at(-1)?.parts ?? [];
  return parts.map((p) => (typeof p.text === 'string' ? p.text : '')).join('');
}

async function startFake(stack: CleanupStack): Promise<FakeGemini> {
  // With tools offered and no tool result yet, the fake model calls the first tool.
  const script = (r: RecordedRequest) => {
    const decls = declarationsOf(r);
    const answered = functionResponsesOf(r);
    if (decls.length && !answered.length)
      return reply(functionCall(decls[0].name, { city: 'Paris' }, { id: 'call-1' }));
    if (answered.length) return reply(text(`FAKE-FINAL:${JSON.stringify(answered.map((a) => a.response))}`));
    return reply(text(`FAKE:${lastUserText(r)}`));
  };
  return startFakeModel(stack, KEY, script);
}

/** Wait for the next sampling review of `stage` from `serverId`, answer it, return what was shown. */
async function answerNext(
  t: TestHost,
  serverId: string,
  stage: SamplingRequestView['stage'],
  answer: (v: SamplingRequestView) => Answer,
): Promise<SamplingRequestView> {
  const view = await waitFor(`a sampling ${stage} review from ${serverId}`, () =>
    t.broker
      .list()
      .find(
        (r): r is SamplingRequestView =>
          r.kind === 'sampling' && r.serverId === serverId && r.stage === stage,
      ),
  );
  assert.equal(t.broker.respond(view.id, answer(view)), true);
  return view;
}

const approve: Answer = { kind: 'sampling', action: 'approve' };

/** The tool's text, or the error's message when the call itself failed. */
async function outcomeText(p: Promise<Parameters<typeof textOf>[0]>): Promise<string> {
  try {
    return textOf(await p);
  } catch (error) {
    return (error as Error).message;
  }
}

for (const transport of ['stdio', 'http'] as const) {
  describe(`sampling with server-everything over ${transport}`, { timeout: 120_000 }, () => {
    const stack = new CleanupStack();
    const id = `everything-${transport}`;
    let t: TestHost;
    let fake: FakeGemini;

    before(async () => {
      fake = await startFake(stack);
      t = await createTestHost(stack, {
        servers: {},
        providerOverrides: fakeModelOverrides(fake, KEY),
      });
      await addEverything(stack, t, id, transport);
    });
    after(() => stack.run());

    it('offers trigger-sampling-request (the capability is declared)', () => {
      const tool = t.host
        .catalog()
        .tools.find((x) => x.serverId === id && x.tool.name === 'trigger-sampling-request');
      assert.ok(tool, 'server-everything registers the tool only for clients that declare sampling');
      const props = (tool.tool.inputSchema as { properties?: Record<string, unknown> }).properties ?? {};
      assert.deepEqual(Object.keys(props).sort(), ['maxTokens', 'prompt']);
    });

    it('approved: the server prompt reaches the model and the model text reaches the server', async () => {
      const before = fake.generateRequests().length;
      const call = t.host.callTool(id, 'trigger-sampling-request', {
        prompt: `hello from ${transport}`,
        maxTokens: 50,
      });
      const req = await answerNext(t, id, 'request', () => approve);
      assert.deepEqual(req.messages, [
        {
          role: 'user',
          content: [
            { type: 'text', text: `Resource trigger-sampling-request context: hello from ${transport}` },
          ],
        },
      ]);
      assert.equal(req.systemPrompt, 'You are a helpful test server.');
      assert.equal(req.maxTokens, 50);
      assert.equal(req.temperature, 0.7);
      assert.deepEqual(req.suggestedModel, { provider: 'gemini', model: 'gemini-2.5-flash' });
      const rep = await answerNext(t, id, 'reply', () => approve);
      assert.equal(
        rep.reply?.text,
        `FAKE:Resource trigger-sampling-request context: hello from ${transport}`,
      );
      const out = textOf(await call);
      assert.match(out, /LLM sampling result/);
      assert.match(
        out,
        new RegExp(`FAKE:Resource trigger-sampling-request context: hello from ${transport}`),
      );
      assert.match(out, /"model": "gemini-2.5-flash"/);
      assert.match(out, /"stopReason": "endTurn"/);
      const sent = fake.generateRequests().slice(before);
      assert.equal(sent.length, 1);
      assert.equal(
        lastUserText(sent[0]),
        `Resource trigger-sampling-request context: hello from ${transport}`,
      );
      assert.equal(sent[0].body?.systemInstruction?.parts?.[0]?.text, 'You are a helpful test server.');
      assert.equal(sent[0].body?.generationConfig?.maxOutputTokens, 50);
      assert.equal(sent[0].body?.generationConfig?.temperature, 0.7);
    });

    it('edited: the model gets the edited message, the server gets the edited reply', async () => {
      const before = fake.generateRequests().length;
      const call = t.host.callTool(id, 'trigger-sampling-request', { prompt: 'original prompt' });
      await answerNext(t, id, 'request', () => ({
        kind: 'sampling',
        action: 'approve',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'EDITED PROMPT' }] }],
        systemPrompt: 'Edited system prompt',
      }));
      const rep = await answerNext(t, id, 'reply', () => ({
        kind: 'sampling',
        action: 'approve',
        replyText: 'EDITED REPLY',
      }));
      assert.equal(rep.reply?.text, 'FAKE:EDITED PROMPT');
      const out = textOf(await call);
      assert.match(out, /EDITED REPLY/);
      assert.doesNotMatch(out, /FAKE:/);
      const sent = fake.generateRequests().slice(before);
      assert.equal(lastUserText(sent[0]), 'EDITED PROMPT');
      assert.doesNotMatch(JSON.stringify(sent[0].body), /original prompt/);
      assert.equal(sent[0].body?.systemInstruction?.parts?.[0]?.text, 'Edited system prompt');
    });

    it('denied: the server hears the refusal and the model is never asked', async () => {
      const before = fake.generateRequests().length;
      const call = t.host.callTool(id, 'trigger-sampling-request', { prompt: 'please' });
      await answerNext(t, id, 'request', () => ({ kind: 'sampling', action: 'deny' }));
      assert.match(await outcomeText(call), /User rejected sampling request/);
      assert.equal(fake.generateRequests().length, before);
    });

    it('a denied reply is a refusal too', async () => {
      const call = t.host.callTool(id, 'trigger-sampling-request', { prompt: 'reply check' });
      await answerNext(t, id, 'request', () => approve);
      await answerNext(t, id, 'reply', () => ({ kind: 'sampling', action: 'deny' }));
      const out = await outcomeText(call);
      assert.match(out, /User rejected sampling request/);
      assert.doesNotMatch(out, /FAKE:/);
    });
  });
}

describe('sampling consent, rate limit and timeouts', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  let t: TestHost;
  let fake: FakeGemini;
  let dataDir: string;

  before(async () => {
    fake = await startFake(stack);
    t = await createTestHost(stack, {
      servers: {
        yes: nodeServer(SERVERS.everything),
        no: nodeServer(SERVERS.everything),
        slow: nodeServer(SERVERS.everything),
      },
      providerOverrides: fakeModelOverrides(fake, KEY),
      dataDir: true,
      sampling: { rateLimit: { capacity: 3, perMs: 60_000 }, timeoutMs: 400 },
    });
    dataDir = join(t.dir, 'data');
    for (const id of ['yes', 'no', 'slow']) await waitForState(t.host, id, 'connected');
  });
  after(() => stack.run());

  it('"always" skips the request review from then on and is saved', async () => {
    const first = t.host.callTool('yes', 'trigger-sampling-request', { prompt: 'one' });
    await answerNext(t, 'yes', 'request', () => ({ ...approve, remember: 'always' }));
    await answerNext(t, 'yes', 'reply', () => ({ ...approve, skipReplyReview: true }));
    assert.match(textOf(await first), /FAKE:.*one/);
    const stages: string[] = [];
    const off = t.events.on('pending.changed', (list) => {
      for (const r of list) if (r.kind === 'sampling' && r.serverId === 'yes') stages.push(r.stage);
    });
    const second = textOf(await t.host.callTool('yes', 'trigger-sampling-request', { prompt: 'two' }));
    off();
    assert.match(second, /FAKE:.*two/);
    assert.deepEqual(stages, [], 'no review was raised');
    await t.samplingConsent.flush();
    const saved = JSON.parse(await readFile(join(dataDir, 'sampling.json'), 'utf8')) as {
      servers: Record<string, unknown>;
    };
    // When it was granted is kept too (the Permissions page shows it).
    const { grantedAt, ...decision } = saved.servers.yes as { grantedAt?: string };
    assert.match(grantedAt ?? '', /^\d{4}-\d\d-\d\dT/);
    assert.deepEqual(decision, { consent: 'always', skipReplyReview: true });
    const reopened = await SamplingConsentStore.open(join(dataDir, 'sampling.json'));
    assert.deepEqual(reopened.get('yes'), { consent: 'always', skipReplyReview: true });
  });

  it('"never" refuses at once, is saved, and survives a restart of the store', async () => {
    const first = t.host.callTool('no', 'trigger-sampling-request', { prompt: 'x' });
    await answerNext(t, 'no', 'request', () => ({ kind: 'sampling', action: 'deny', remember: 'never' }));
    assert.match(await outcomeText(first), /User rejected sampling request/);
    const before = fake.generateRequests().length;
    let raised = 0;
    const off = t.events.on('pending.changed', (list) => {
      raised += list.filter((r) => r.kind === 'sampling' && r.serverId === 'no').length;
    });
    assert.match(
      await outcomeText(t.host.callTool('no', 'trigger-sampling-request', { prompt: 'y' })),
      /User rejected sampling request: sampling is turned off/,
    );
    off();
    assert.equal(raised, 0);
    assert.equal(fake.generateRequests().length, before);
    await t.samplingConsent.flush();
    assert.equal(
      (await SamplingConsentStore.open(join(dataDir, 'sampling.json'))).get('no').consent,
      'never',
    );
  });

  it('the rate limit refuses the request past the limit with a clear message', async () => {
    // "yes" already used two of its three tokens above.
    assert.match(
      textOf(await t.host.callTool('yes', 'trigger-sampling-request', { prompt: 'three' })),
      /FAKE:.*three/,
    );
    const over = await outcomeText(t.host.callTool('yes', 'trigger-sampling-request', { prompt: 'four' }));
    assert.match(over, /Sampling rate limit exceeded for server "yes": at most 3 requests per 60 s/);
  });

  it('an unanswered review times out and the server hears so', async () => {
    const call = t.host.callTool('slow', 'trigger-sampling-request', { prompt: 'anyone?' });
    const out = await outcomeText(call);
    assert.match(out, /User rejected sampling request: nobody answered the review in time/);
    assert.equal(t.broker.list().filter((r) => r.kind === 'sampling').length, 0);
  });

  it('a stopped server settles its pending review', async () => {
    const call = outcomeText(
      t.host.callTool('slow', 'trigger-sampling-request', { prompt: 'stop me' }, { timeoutMs: 10_000 }),
    );
    await waitFor('a review', () =>
      t.broker.list().find((r) => r.kind === 'sampling' && r.serverId === 'slow'),
    );
    await t.host.setEnabled('slow', false);
    await call;
    await waitFor('no review left', () =>
      t.broker.list().some((r) => r.kind === 'sampling') ? undefined : true,
    );
  });
});

describe('sampling in the 2026-07-28 era (input_required createMessage)', { timeout: 60_000 }, () => {
  const stack = new CleanupStack();
  let t: TestHost;
  let fake: FakeGemini;

  before(async () => {
    fake = await startFake(stack);
    t = await createModernHost(stack, { providerOverrides: fakeModelOverrides(fake, KEY) });
  });
  after(() => stack.run());

  it('runs the embedded sampling request through both reviews', async () => {
    const call = t.host.callTool('modern', 'summarise', { text: 'a long story' });
    const req = await answerNext(t, 'modern', 'request', () => approve);
    assert.equal(req.systemPrompt, 'You write one-line summaries.');
    assert.deepEqual(req.modelPreferences?.hints, [{ name: 'flash' }]);
    assert.equal(req.suggestedModel.model, 'gemini-2.5-flash');
    await answerNext(t, 'modern', 'reply', () => ({ ...approve, replyText: 'A story, shortened.' }));
    assert.equal(textOf(await call), 'summary (gemini-2.5-flash): A story, shortened.');
    assert.equal(lastUserText(fake.generateRequests().at(-1)!), 'Summarise: a long story');
  });

  it("sampling with tools: the model's tool call goes back to the server, which runs it and asks again", async () => {
    const before = fake.generateRequests().length;
    const call = t.host.callTool('modern', 'weather-agent', { city: 'Paris' });
    const first = await answerNext(t, 'modern', 'request', () => approve);
    assert.deepEqual(
      first.tools?.map((x) => x.name),
      ['get_weather'],
    );
    const firstReply = await answerNext(t, 'modern', 'reply', () => approve);
    assert.equal(firstReply.reply?.stopReason, 'toolUse');
    assert.match(firstReply.reply?.text ?? '', /\[tool call get_weather \{"city":"Paris"\}\]/);
    // The follow-up round carries the tool_use and the server's tool_result.
    const second = await answerNext(t, 'modern', 'request', () => approve);
    assert.deepEqual(
      second.messages.map((m) => m.role),
      ['user', 'assistant', 'user'],
    );
    assert.match(JSON.stringify(second.messages[2]), /tool result for call-1: Sunny, 21 C in Paris/);
    await answerNext(t, 'modern', 'reply', () => approve);
    const out = textOf(await call);
    assert.match(out, /^weather-agent \(3 messages\): FAKE-FINAL:/);
    assert.match(out, /Sunny, 21 C in Paris/);
    const sent = fake.generateRequests().slice(before);
    assert.equal(sent.length, 2);
    assert.deepEqual(
      declarationsOf(sent[0]).map((d) => d.name),
      ['get_weather'],
    );
    const responses = functionResponsesOf(sent[1]);
    assert.equal(responses.length, 1);
    assert.equal(responses[0].name, 'get_weather');
    assert.equal(responses[0].id, 'call-1');
  });

  it('a denial reaches the modern server as an error', async () => {
    const call = t.host.callTool('modern', 'summarise', { text: 'nope' });
    await answerNext(t, 'modern', 'request', () => ({ kind: 'sampling', action: 'deny' }));
    assert.match(await outcomeText(call), /User rejected sampling request/);
  });
});
