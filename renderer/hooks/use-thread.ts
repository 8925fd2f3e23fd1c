import { useEffect, useState } from 'react';
import type { ChatEvent } from '../../shared/domain/chat.js';
import type { HostError } from '../../shared/domain/server-state.js';
import { asHostError } from '../host/errors.js';
import { useHost, useHostEpoch, useHostStore } from '../host/host-context.js';
import { applyChatEvent, threadOf, type ThreadState } from '../lib/chat-reducer.js';

/** The open conversation's thread. */
export type ThreadLoad =
  | { kind: 'none' }
  | { kind: 'loading' }
  | { kind: 'ready'; thread: ThreadState }
  | { kind: 'error'; error: HostError };

/**
 * One conversation, live: `chat.get` on open and on (re)connect, then its `chat.event`s.
 * Events that arrive while a snapshot is in flight are kept and replayed on top of it;
 * at each run's end the snapshot is fetched again so the view matches what is stored.
 */
export function useThread(conversationId: string | null): ThreadLoad {
  const host = useHost();
  const store = useHostStore();
  const epoch = useHostEpoch();
  // Tagged with the conversation it shows: opening another one reads as loading until it lands.
  const [held, setHeld] = useState<{ id: string; load: ThreadLoad }>({ id: '', load: { kind: 'loading' } });

  useEffect(() => {
    if (conversationId === null || epoch === null) return undefined;
    let live = true;
    const setLoad = (f: (l: ThreadLoad) => ThreadLoad) =>
      setHeld((h) => ({
        id: conversationId,
        load: f(h.id === conversationId ? h.load : { kind: 'loading' }),
      }));
    // Only the newest snapshot counts; events since it was asked for are replayed onto it.
    let generation = 0;
    let buffered: ChatEvent[] | null = null;

    const fetchSnapshot = () => {
      const mine = ++generation;
      buffered = [];
      host.invoke('chat.get', { id: conversationId }).then(
        (conversation) => {
          if (!live || mine !== generation) return;
          const replay = buffered ?? [];
          buffered = null;
          setLoad((l) => {
            // Keep notices and the last run's ending: they are not part of the stored conversation.
            const base = l.kind === 'ready' ? { ...l.thread, conversation } : threadOf(conversation);
            return { kind: 'ready', thread: replay.reduce(applyChatEvent, base) };
          });
        },
        (error: unknown) => {
          if (!live || mine !== generation) return;
          buffered = null;
          // A failed refresh after a run keeps what the events built; only a first load fails.
          setLoad((l) => (l.kind === 'ready' ? l : { kind: 'error', error: asHostError(error) }));
        },
      );
    };

    const off = store.on('chat.event', ({ conversationId: id, event }) => {
      if (!live || id !== conversationId) return;
      buffered?.push(event);
      setLoad((l) => (l.kind === 'ready' ? { kind: 'ready', thread: applyChatEvent(l.thread, event) } : l));
      if (event.type === 'run-end') fetchSnapshot();
    });
    fetchSnapshot();
    return () => {
      live = false;
      off();
    };
  }, [host, store, epoch, conversationId]);

  if (conversationId === null) return { kind: 'none' };
  return held.id === conversationId ? held.load : { kind: 'loading' };
}
