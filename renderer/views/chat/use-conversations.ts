import { useEffect, useState } from 'react';
import type { ConversationSummary } from '../../../shared/domain/chat.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { asHostError } from '../../host/errors.js';
import { useHost, useHostEpoch } from '../../host/host-context.js';

/** The conversation list as the chat view sees it, newest first. */
export type ConversationsState =
  | { kind: 'loading' }
  | { kind: 'ready'; conversations: ConversationSummary[] }
  | { kind: 'error'; error: HostError };

const newestFirst = (list: ConversationSummary[]) => [...list].sort((a, b) => b.updatedAt - a.updatedAt);

/** Live conversation list: a snapshot on (re)connect, then every `chat.listChanged`. */
export function useConversations(): ConversationsState {
  const host = useHost();
  const epoch = useHostEpoch();
  const [state, setState] = useState<ConversationsState>({ kind: 'loading' });

  useEffect(() => {
    if (epoch === null) return undefined;
    let live = true;
    let gotEvent = false;
    const off = host.on('chat.listChanged', (list) => {
      gotEvent = true;
      if (live) setState({ kind: 'ready', conversations: newestFirst(list) });
    });
    host.invoke('chat.list', {}).then(
      (list) => {
        if (live && !gotEvent) setState({ kind: 'ready', conversations: newestFirst(list) });
      },
      (error: unknown) => {
        if (live && !gotEvent) setState({ kind: 'error', error: asHostError(error) });
      },
    );
    return () => {
      live = false;
      off();
    };
  }, [host, epoch]);

  return state;
}
