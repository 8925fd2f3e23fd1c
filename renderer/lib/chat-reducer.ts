import type {
  ChatEvent,
  ChatMessage,
  ChatPart,
  Conversation,
  RunEnd,
  ToolCallRecord,
} from '../../shared/domain/chat.js';
import type { HostError } from '../../shared/domain/server-state.js';

/** A `notice` event, placed after the message that was last when it arrived. */
export interface ThreadNotice {
  key: number;
  afterMessages: number;
  text: string;
}

/** The open conversation as the thread shows it: stored messages plus live run state. */
export interface ThreadState {
  conversation: Conversation;
  notices: ThreadNotice[];
  /** How the last run in this view ended, when it did not simply finish. */
  lastEnd: { reason: Exclude<RunEnd, 'done'>; error?: HostError; afterMessages: number } | null;
}

/** A fresh thread for a conversation snapshot. */
export function threadOf(conversation: Conversation): ThreadState {
  return { conversation, notices: [], lastEnd: null };
}

/**
 * Apply one chat event. Events that carry whole objects (run-start, message-start,
 * tool-call) replace by id, so replaying one that a snapshot already holds is harmless.
 */
export function applyChatEvent(state: ThreadState, event: ChatEvent): ThreadState {
  const conv = state.conversation;
  switch (event.type) {
    case 'run-start':
      return { ...state, lastEnd: null, conversation: startFrom(conv, event.userMessage) };
    case 'message-start':
      return { ...state, conversation: upsertMessage(conv, event.message) };
    case 'text-delta':
      return {
        ...state,
        conversation: updateMessage(conv, event.messageId, (m) => appendText(m, 'text', event.text)),
      };
    case 'thinking-delta':
      return {
        ...state,
        conversation: updateMessage(conv, event.messageId, (m) => appendText(m, 'thinking', event.text)),
      };
    case 'tool-call':
      return {
        ...state,
        conversation: updateMessage(conv, event.messageId, (m) => upsertCall(m, event.call)),
      };
    case 'offer':
      return {
        ...state,
        conversation: updateMessage(conv, event.messageId, (m) => ({ ...m, offer: event.offer })),
      };
    case 'retry':
      return {
        ...state,
        conversation: updateMessage(conv, event.messageId, (m) => ({ ...m, retries: event.retries })),
      };
    case 'notice': {
      const key = (state.notices.at(-1)?.key ?? 0) + 1;
      return {
        ...state,
        notices: [...state.notices, { key, afterMessages: conv.messages.length, text: event.text }],
      };
    }
    case 'run-end':
      if (event.reason === 'done') return state;
      return {
        ...state,
        lastEnd: { reason: event.reason, error: event.error, afterMessages: conv.messages.length },
      };
  }
}

/** A run from a message the thread holds (retry, edit) replaces it and drops what followed. */
function startFrom(conv: Conversation, userMessage: ChatMessage): Conversation {
  const i = conv.messages.findIndex((m) => m.id === userMessage.id);
  if (i < 0) return { ...conv, messages: [...conv.messages, userMessage] };
  return { ...conv, messages: [...conv.messages.slice(0, i), userMessage] };
}

function upsertMessage(conv: Conversation, message: ChatMessage): Conversation {
  const i = conv.messages.findIndex((m) => m.id === message.id);
  const messages = i < 0 ? [...conv.messages, message] : conv.messages.map((m, j) => (j === i ? message : m));
  return { ...conv, messages };
}

function updateMessage(
  conv: Conversation,
  id: string,
  change: (m: ChatMessage) => ChatMessage,
): Conversation {
  // A delta for a message we never saw started (we joined mid-run) is dropped, not guessed at.
  if (!conv.messages.some((m) => m.id === id)) return conv;
  return { ...conv, messages: conv.messages.map((m) => (m.id === id ? change(m) : m)) };
}

/** Deltas extend the last part of the same kind; a tool call in between starts a new one. */
function appendText(message: ChatMessage, type: 'text' | 'thinking', text: string): ChatMessage {
  const last = message.parts.at(-1);
  if (last && last.type === type) {
    return { ...message, parts: [...message.parts.slice(0, -1), { type, text: last.text + text }] };
  }
  return { ...message, parts: [...message.parts, { type, text }] };
}

function upsertCall(message: ChatMessage, call: ToolCallRecord): ChatMessage {
  const i = message.parts.findIndex((p) => p.type === 'tool_call' && p.call.id === call.id);
  const part: ChatPart = { type: 'tool_call', call };
  const parts = i < 0 ? [...message.parts, part] : message.parts.map((p, j) => (j === i ? part : p));
  return { ...message, parts };
}
