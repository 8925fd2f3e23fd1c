import { useMemo } from 'react';
import type { ConversationSummary } from '../../../shared/domain/chat.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import type { HostApi } from '../../../shared/ipc/contract.js';
import { useLiveSnapshot } from '../../hooks/use-live-snapshot.js';

/** The conversation list as the chat view sees it, newest first. */
export type ConversationsState =
  | { kind: 'loading' }
  | { kind: 'ready'; conversations: ConversationSummary[] }
  | { kind: 'error'; error: HostError };

const newestFirst = (list: ConversationSummary[]) => [...list].sort((a, b) => b.updatedAt - a.updatedAt);
const fetchList = (host: HostApi) => host.invoke('chat.list', {});
const onList = (host: HostApi, l: (list: ConversationSummary[]) => void) => host.on('chat.listChanged', l);

/** Live conversation list: a snapshot on (re)connect, then every `chat.listChanged`. */
export function useConversations(): ConversationsState {
  const s = useLiveSnapshot(fetchList, onList);
  return useMemo(
    () => (s.kind === 'ready' ? { kind: 'ready', conversations: newestFirst(s.value) } : s),
    [s],
  );
}
