/**
 * Hostile stdio servers, part 2: results too big to hand on. A 50 MB text result and one with
 * 200,000 content items reach the model and the UI truncated, with a note saying so, and so do
 * resource reads and prompts past their caps; a message over the one-message limit fails only
 * its own call. The healthy server beside them keeps working and the host's memory stays bounded.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TRUNCATED_META_KEY } from '../../electron/host/servers/result-caps.js';
import { LIMITS } from '../../electron/host/util/limits.js';
import {
  assertHealthy,
  cleanUpAndAssertPeakRss,
  hostileServer,
  hostWithHealthy,
} from '../helpers/hostile-harness.js';
import { CleanupStack, rejection, textOf, type TestHost } from '../helpers/host-harness.js';

describe('hostile stdio servers: huge results', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  let t: TestHost;

  before(async () => {
    t = await hostWithHealthy(stack, {
      hostile: hostileServer(),
      reader: hostileServer({ HOSTILE_READS: '1' }),
    });
  });
  after(() => cleanUpAndAssertPeakRss(stack));

  it('truncates a 50 MB text result for the model and the UI, with a visible note', async () => {
    const result = await t.host.callTool('hostile', 'big-text', { mb: 50 });
    const text = textOf(result);
    assert.ok(text.length < LIMITS.resultTextBytes + 2000, `got ${text.length} chars`);
    assert.match(text, /^x{1000}/);
    assert.match(text, /truncated by MCP Desk: the tool returned .*52,428,800 bytes of text/);
    assert.ok(result._meta?.[TRUNCATED_META_KEY], 'the result is marked truncated');
    // The trace keeps a clipped copy, not the 50 MB.
    const biggest = Math.max(...t.host.trace('hostile').map((e) => e.json.length));
    assert.ok(biggest <= LIMITS.traceEntryChars + 100, `largest trace entry ${biggest} chars`);
    await assertHealthy(t);
    assert.equal(textOf(await t.host.callTool('hostile', 'echo', { message: 'after 50 MB' })), 'after 50 MB');
  });

  it('keeps the first items of a 200,000-item result, with a note', async () => {
    const result = await t.host.callTool('hostile', 'many-items', { count: 200_000 });
    // The kept items plus the note.
    assert.equal(result.content.length, LIMITS.resultItems + 1);
    assert.equal(textOf({ content: [result.content[0]] }), 'item 0');
    assert.match(textOf({ content: [result.content[LIMITS.resultItems]] }), /200,000 content items/);
    await assertHealthy(t);
  });

  it('clips a 20 MB resource text to its cap, saying so at its end', async () => {
    const result = await t.host.readResource('reader', 'hostile://text?mb=20');
    assert.equal(result.contents.length, 1);
    const text = result.contents[0].text ?? '';
    assert.ok(text.length < LIMITS.resourceTextBytes + 2000, `got ${text.length} chars`);
    assert.match(text, /^t{1000}/);
    assert.match(
      text,
      /\[truncated by MCP Desk: the resource returned 1 contents .* 20,971,520 bytes of text \(limit 8,388,608 bytes\)/,
    );
    assert.ok(result._meta?.[TRUNCATED_META_KEY], 'the result is marked truncated');
    await assertHealthy(t);
  });

  it('replaces a resource blob over its cap with a note on the same URI, and keeps the first contents of 5,000', async () => {
    const blob = await t.host.readResource('reader', 'hostile://blob?mb=40');
    assert.equal(blob.contents[0].blob, undefined, 'the 40 MB blob was not handed on');
    assert.equal(blob.contents[0].uri, 'hostile://blob?mb=40');
    assert.match(blob.contents[0].text ?? '', /dropped by MCP Desk: 41,943,040 bytes of base64 data/);
    const many = await t.host.readResource('reader', 'hostile://many?count=5000');
    assert.equal(many.contents.length, LIMITS.resourceContents);
    assert.match(many.contents.at(-1)?.text ?? '', /5,000 contents \(limit 1,000 contents\)/);
    await assertHealthy(t);
  });

  it('caps a prompt like a tool result: 1 MB of text and 5,000 messages', async () => {
    const big = await t.host.getPrompt('reader', 'big', { kb: '1024' });
    const first = big.messages[0].content;
    assert.ok(first.type === 'text' && first.text.length <= LIMITS.promptTextBytes, 'the text is clipped');
    const note = big.messages.at(-1)?.content;
    assert.ok(note?.type === 'text' && /1,048,576 bytes of text \(limit 262,144 bytes\)/.test(note.text));
    assert.ok(big._meta?.[TRUNCATED_META_KEY]);
    const many = await t.host.getPrompt('reader', 'many', { count: '5000' });
    assert.equal(many.messages.length, LIMITS.promptMessages + 1);
    await assertHealthy(t);
  });

  it('fails only the call whose response is over the one-message limit, naming the server', async () => {
    const mb = Math.ceil(LIMITS.messageBytes / (1024 * 1024)) + 6;
    const error = await rejection(t.host.callTool('hostile', 'big-text', { mb }));
    assert.equal(error.code, 'protocol_error', JSON.stringify(error));
    assert.match(error.message, /server "hostile", tool "big-text": .*MB response, over the 64\.0 MB limit/);
    assert.ok(t.host.log('hostile').some((l) => /stdout: dropped a [\d,]+-byte message/.test(l.text)));
    assert.equal(t.host.list().find((s) => s.id === 'hostile')?.state.kind, 'connected');
    assert.equal(textOf(await t.host.callTool('hostile', 'echo', { message: 'still up' })), 'still up');
    await assertHealthy(t);
  });
});
