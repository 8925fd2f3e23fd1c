import { useCallback, useRef, useState } from 'react';
import { useHost } from '../../host/host-context.js';
import { BEING_CREATED, moveDraft } from './drafts.js';

/**
 * "New chat": asks the host for a conversation and selects it when the host answers. Until
 * then, a message or a tool switch belongs to the conversation being created, not to the one
 * still on screen: `target` waits for it (and with nothing open, creates one). What is typed
 * meanwhile is kept as the BEING_CREATED draft and moves to the new conversation; if the host
 * refuses, it moves back to `fallbackKey` (the draft slot still on screen), so nothing is lost.
 */
export function useNewConversation(select: (id: string) => void) {
  const host = useHost();
  const [creating, setCreating] = useState(false);
  const creation = useRef<Promise<string> | null>(null);

  const create = useCallback(
    (fallbackKey?: string): Promise<string> => {
      if (creation.current) return creation.current;
      setCreating(true);
      const settle = () => {
        creation.current = null;
        setCreating(false);
      };
      const made = host.invoke('chat.create', {}).then(
        (conv) => {
          // In one step, so no render shows the new conversation without its draft.
          moveDraft(BEING_CREATED, conv.id);
          select(conv.id);
          settle();
          return conv.id;
        },
        (e: unknown) => {
          if (fallbackKey !== undefined) moveDraft(BEING_CREATED, fallbackKey);
          settle();
          throw e;
        },
      );
      creation.current = made;
      return made;
    },
    [host, select],
  );

  const target = useCallback(
    async (selectedId: string | null): Promise<string> =>
      (await creation.current) ?? selectedId ?? (await create()),
    [create],
  );

  return { creating, create, target };
}
