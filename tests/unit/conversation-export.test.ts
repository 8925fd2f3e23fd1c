// Exporting a conversation as JSON and as Markdown.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Conversation } from '../../shared/domain/chat.js';
import { exportJson, exportMarkdown } from '../../electron/host/stores/conversation-export.js';

describe('conversation export', () => {
  const conversation: Conversation = {
    id: 'c1',
    title: 'Weather\nin Paris',
    createdAt: Date.UTC(2026, 0, 2, 3, 4, 5),
    updatedAt: Date.UTC(2026, 0, 2, 3, 5, 0),
    messages: [
      {
        id: 'u1',
        role: 'user',
        createdAt: Date.UTC(2026, 0, 2, 3, 4, 5),
        parts: [
          { type: 'text', text: 'What is the weather?' },
          {
            type: 'attachment',
            attachment: {
              serverId: 'fs',
              uri: 'file:///tmp/notes.md',
              name: 'notes.md',
              mimeType: 'text/markdown',
              text: '# notes',
            },
          },
        ],
      },
      {
        id: 'a1',
        role: 'assistant',
        model: 'gemini-2.5-flash',
        createdAt: Date.UTC(2026, 0, 2, 3, 4, 6),
        parts: [
          { type: 'thinking', text: 'I should call the tool.\n\nThen answer.' },
          {
            type: 'tool_call',
            call: {
              id: 't1',
              serverId: 'weather',
              tool: 'forecast',
              modelName: 'weather__forecast',
              args: { city: 'Paris' },
              status: 'done',
              approval: 'once',
              startedAt: 1,
              endedAt: 2,
              result: {
                content: [
                  { type: 'text', text: 'Sunny, 21°C\n```\nnot a fence end' },
                  { type: 'image', data: 'AAAA', mimeType: 'image/png' },
                ],
              },
            },
          },
          {
            type: 'tool_call',
            call: {
              id: 't2',
              serverId: 'weather',
              tool: 'alerts',
              modelName: 'weather__alerts',
              args: {},
              status: 'error',
              startedAt: 3,
              error: { code: 'timeout', message: 'the server did not answer in 30 s' },
            },
          },
          { type: 'text', text: 'It is **sunny**.' },
        ],
      },
    ],
  };

  it('markdown: title, role headings, thinking as a blockquote, tool calls as JSON with results and errors, attachments', () => {
    const md = exportMarkdown(conversation);
    assert.ok(md.startsWith('# Weather in Paris\n'), md);
    assert.match(md, /^## User$/m);
    assert.match(md, /^## Assistant \(gemini-2\.5-flash\)$/m);
    assert.match(md, /^> \*\*Thinking\*\*\n>\n> I should call the tool\.\n>\n> Then answer\.$/m);
    assert.ok(!md.includes('<details'), 'no HTML');
    const json = /```json\n([\s\S]*?)\n```/.exec(md);
    assert.ok(json?.[1], md);
    assert.deepEqual(JSON.parse(json[1]), {
      server: 'weather',
      tool: 'forecast',
      args: { city: 'Paris' },
      status: 'done',
      approval: 'once',
    });
    // The result holds a ``` run, so its fence must be longer for the block to stay closed.
    assert.match(md, /\n````\nSunny, 21°C\n```\nnot a fence end\n\n\[image: image\/png\]\n````\n/);
    assert.ok(!md.includes('AAAA'), 'binary content is named, not dumped');
    assert.match(md, /\*\*Error\*\* \(timeout\): the server did not answer in 30 s/);
    assert.match(md, /^- notes\.md — `file:\/\/\/tmp\/notes\.md` from server `fs` \(text\/markdown\)$/m);
    assert.match(md, /It is \*\*sunny\*\*\./);
    assert.ok(md.indexOf('What is the weather?') < md.indexOf('It is **sunny**'));
  });

  it('json: pretty and lossless', () => {
    const text = exportJson(conversation);
    assert.ok(text.includes('\n  "title"'));
    assert.deepEqual(JSON.parse(text), conversation);
  });
});
