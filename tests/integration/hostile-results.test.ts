/**
 * Hostile stdio servers, part 2: results too big to hand on. A 50 MB text result and one with
 * 200,000 content items reach the model and the UI truncated, with a note saying so; a
 * message over the one-message limit fails only its own call. The healthy server beside them
 * keeps working and the host's memory stays bounded.
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
    t = await hostWithHealthy(stack, { hostile: hostileServer() });
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
