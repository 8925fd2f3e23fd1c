/**
 * The pieces of issue 12 item 11 that need no browser: the chat hand-off queue (every hand-off
 * arrives once, in order, and the navigation cue fires per hand-off), which resources count as
 * Markdown, and what Copy puts on the clipboard. The flows themselves are in
 * tests/e2e/handoffs.test.ts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chatHandoffStore, handToChat, takeHandoffs } from '../../renderer/store/chat-handoff-store.js';
import { isMarkdownResource } from '../../renderer/components/content/resource-text.js';
import { resultCopyText } from '../../renderer/components/content/result-actions.js';

describe('chat hand-off store', () => {
  it('queues hand-offs in order, hands each out once, and counts every one', () => {
    takeHandoffs();
    const cues: number[] = [];
    const stop = chatHandoffStore.subscribe((s, prev) => {
      if (s.count !== prev.count) cues.push(s.count);
    });
    const before = chatHandoffStore.getState().count;
    handToChat({ kind: 'resource', serverId: 'a', uri: 'x://1', name: 'one' });
    handToChat({
      kind: 'prompt',
      serverId: 'a',
      name: 'p',
      result: { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] },
    });
    assert.deepEqual(
      takeHandoffs().map((h) => h.kind),
      ['resource', 'prompt'],
    );
    assert.deepEqual(takeHandoffs(), [], 'a hand-off is taken once');
    assert.deepEqual(cues, [before + 1, before + 2], 'taking does not cue navigation again');
    stop();
  });
});

describe('isMarkdownResource', () => {
  it('goes by media type first, then by the URI', () => {
    assert.equal(isMarkdownResource('text/markdown', 'x://a'), true);
    assert.equal(isMarkdownResource('text/markdown; charset=utf-8', 'x://a'), true);
    assert.equal(isMarkdownResource('text/plain', 'file:///a.md'), false, 'a stated type wins');
    assert.equal(isMarkdownResource(undefined, 'file:///notes/A.MD?v=2'), true);
    assert.equal(isMarkdownResource(undefined, 'file:///a.mdx'), false);
  });
});

describe('resultCopyText', () => {
  const result = {
    content: [
      { type: 'text' as const, text: 'one' },
      { type: 'text' as const, text: 'two' },
    ],
    structuredContent: { n: 2 },
  };
  it('copies the text blocks, or the exact JSON in Raw', () => {
    assert.equal(resultCopyText(result, false), 'one\n\ntwo');
    assert.deepEqual(JSON.parse(resultCopyText(result, true)), result);
  });
  it('copies the JSON when there is no text to read', () => {
    const noText = { content: [], structuredContent: { n: 1 } };
    assert.deepEqual(JSON.parse(resultCopyText(noText, false)), noText);
  });
});
