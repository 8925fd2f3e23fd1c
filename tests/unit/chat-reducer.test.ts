// The thread reducer's handling of retry and edit (issue 12 item 8): a run that starts from a
// message the thread holds replaces it and drops what followed; a retry event sets the
// message's de-duplicated retry list.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatMessage, Conversation } from '../../shared/domain/chat.js';
import { applyChatEvent, threadOf } from '../../renderer/lib/chat-reducer.js';

const msg = (id: string, role: ChatMessage['role'], text: string): ChatMessage => ({
  id,
  role,
  createdAt: 0,
  parts: [{ type: 'text', text }],
});

const conversation: Conversation = {
  id: 'c1',
  title: 't',
  createdAt: 0,
  updatedAt: 0,
  messages: [
    msg('u1', 'user', 'one'),
    msg('a1', 'assistant', 'A'),
    msg('u2', 'user', 'two'),
    msg('a2', 'assistant', 'B'),
  ],
};

test('a run from a held user message replaces it and drops the later turns', () => {
  const edited = msg('u1', 'user', 'one, edited');
  const next = applyChatEvent(threadOf(conversation), { type: 'run-start', runId: 'r', userMessage: edited });
  assert.deepEqual(
    next.conversation.messages.map((m) => m.id),
    ['u1'],
  );
  assert.equal(next.conversation.messages[0], edited);
});

test('a run from a new user message appends it', () => {
  const next = applyChatEvent(threadOf(conversation), {
    type: 'run-start',
    runId: 'r',
    userMessage: msg('u3', 'user', 'three'),
  });
  assert.deepEqual(
    next.conversation.messages.map((m) => m.id),
    ['u1', 'a1', 'u2', 'a2', 'u3'],
  );
});

test('a retry event sets the retry list on its message only', () => {
  const retries = [{ message: 'model unavailable', count: 2, lastAt: 5 }];
  const next = applyChatEvent(threadOf(conversation), { type: 'retry', messageId: 'a2', retries });
  assert.deepEqual(next.conversation.messages[3].retries, retries);
  assert.equal(next.conversation.messages[1], conversation.messages[1], 'other messages keep their object');
});
