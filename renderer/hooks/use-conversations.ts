import { useMemo } from 'react';
import type { ConversationSummary } from '../../shared/domain/chat.js';
import type { HostError } from '../../shared/domain/server-state.js';
import { useSnapshot } from './use-host-state.js';

/** The conversation list as the views see it, newest first. */
export type ConversationsState =
  | { kind: 'loading' }
  | { kind: 'ready'; conversations: ConversationSummary[] }
  | { kind: 'error'; error: HostError };

const newestFirst = (list: ConversationSummary[]) => [...list].sort((a, b) => b.updatedAt - a.updatedAt);

/** Live conversation list from the store (a snapshot on (re)connect, then every `chat.listChanged`). */
export function useConversations(): ConversationsState {
  const s = useSnapshot('conversations');
  return useMemo(
    () => (s.kind === 'ready' ? { kind: 'ready', conversations: newestFirst(s.value) } : s),
    [s],
  );
}

/**
 * The run answering in a conversation right now, as the host reports it (`activeRunId`), or
 * null. The host's word is the only one: views never work it out from chat events.
 */
export function useActiveRun(conversationId: string | null): string | null {
  const s = useSnapshot('conversations');
  if (conversationId === null || s.kind !== 'ready') return null;
  return s.value.find((c) => c.id === conversationId)?.activeRunId ?? null;
}
