import { randomUUID } from 'node:crypto';
import type { Conversation, ConversationSummary } from '../../../shared/domain/chat.js';
import { HostFailure } from '../util/errors.js';

/** What a conversation id may look like; it becomes a file name, so nothing else is allowed. */
export const CONVERSATION_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** The title a conversation gets when none is given. */
export const DEFAULT_CONVERSATION_TITLE = 'New chat';

/** The longest title accepted (the IPC contract allows the same). */
export const MAX_TITLE_LENGTH = 200;

/** Where conversations live. */
export interface ConversationStore {
  /** Every readable conversation, newest first. */
  list(): Promise<ConversationSummary[]>;
  /** One conversation; throws `conversation_not_found` or `conversation_corrupt`. */
  get(id: string): Promise<Conversation>;
  create(title?: string): Promise<Conversation>;
  /** Persist a conversation (created or not); sets its `updatedAt` to now. */
  save(conversation: Conversation): Promise<void>;
  rename(id: string, title: string): Promise<ConversationSummary>;
  /** Remove a conversation; removing one that is already gone is not an error. */
  delete(id: string): Promise<void>;
  /** Resolves once every queued write has landed. */
  flush(): Promise<void>;
}

/** A fresh id: random, short, and safe as a file name. */
export function newConversationId(): string {
  return randomUUID().replace(/-/g, '').slice(0, 16);
}

/** Throws `invalid_conversation_id` unless `id` matches CONVERSATION_ID_PATTERN (no `../x`). */
export function assertConversationId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || !CONVERSATION_ID_PATTERN.test(id)) {
    const shown = typeof id === 'string' ? JSON.stringify(id.slice(0, 80)) : typeof id;
    throw new HostFailure(
      'invalid_conversation_id',
      `not a conversation id: ${shown} (letters, digits, "_" and "-", at most 64)`,
    );
  }
}

/** The list entry for a conversation. */
export function summarise(conversation: Conversation): ConversationSummary {
  return {
    id: conversation.id,
    title: conversation.title,
    updatedAt: conversation.updatedAt,
    messageCount: conversation.messages.length,
    ...(conversation.usage ? { usage: conversation.usage } : {}),
  };
}

/** Trim a title and check it; throws `invalid_title`. */
export function checkTitle(title: unknown): string {
  const trimmed = typeof title === 'string' ? title.trim() : '';
  if (!trimmed) throw new HostFailure('invalid_title', 'a conversation title cannot be empty');
  if (trimmed.length > MAX_TITLE_LENGTH) {
    throw new HostFailure(
      'invalid_title',
      `a conversation title can be at most ${MAX_TITLE_LENGTH} characters (got ${trimmed.length})`,
    );
  }
  return trimmed;
}

/** Orders summaries newest first (by last update). */
export function newestFirst(a: ConversationSummary, b: ConversationSummary): number {
  return b.updatedAt - a.updatedAt || a.id.localeCompare(b.id);
}

/** The error for a conversation id that names no conversation. */
export function notFound(id: string): HostFailure {
  return new HostFailure('conversation_not_found', `conversation "${id}" does not exist`);
}

/** Conversations held in memory only (tests, the CLI); `get` returns the stored object itself. */
export class MemoryConversationStore implements ConversationStore {
  private readonly conversations = new Map<string, Conversation>();

  constructor(private readonly now: () => number = Date.now) {}

  async list(): Promise<ConversationSummary[]> {
    return [...this.conversations.values()].map(summarise).sort(newestFirst);
  }

  async get(id: string): Promise<Conversation> {
    assertConversationId(id);
    const found = this.conversations.get(id);
    if (!found) throw notFound(id);
    return found;
  }

  async create(title?: string): Promise<Conversation> {
    const name = title === undefined || title.trim() === '' ? DEFAULT_CONVERSATION_TITLE : checkTitle(title);
    let id = newConversationId();
    while (this.conversations.has(id)) id = newConversationId();
    const at = this.now();
    const conversation: Conversation = { id, title: name, createdAt: at, updatedAt: at, messages: [] };
    this.conversations.set(id, conversation);
    return conversation;
  }

  async save(conversation: Conversation): Promise<void> {
    assertConversationId(conversation.id);
    conversation.updatedAt = this.now();
    this.conversations.set(conversation.id, conversation);
  }

  async rename(id: string, title: string): Promise<ConversationSummary> {
    const name = checkTitle(title);
    const conversation = await this.get(id);
    conversation.title = name;
    await this.save(conversation);
    return summarise(conversation);
  }

  async delete(id: string): Promise<void> {
    assertConversationId(id);
    this.conversations.delete(id);
  }

  async flush(): Promise<void> {}

  dispose(): void {
    this.conversations.clear();
  }
}
