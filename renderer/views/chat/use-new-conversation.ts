import { useCallback, useRef, useState } from 'react';
import { useHost } from '../../host/host-context.js';

/**
 * "New chat": asks the host for a conversation and selects it when the host answers. Until
 * then, a message or a tool switch belongs to the conversation being created, not to the one
 * still on screen: `target` waits for it (and with nothing open, creates one).
 */
export function useNewConversation(select: (id: string) => void) {
  const host = useHost();
  const [creating, setCreating] = useState(false);
  const creation = useRef<Promise<string> | null>(null);

  const create = useCallback((): Promise<string> => {
    if (creation.current) return creation.current;
    setCreating(true);
    const made = host
      .invoke('chat.create', {})
      .then((conv) => {
        select(conv.id);
        return conv.id;
      })
      .finally(() => {
        creation.current = null;
        setCreating(false);
      });
    creation.current = made;
    return made;
  }, [host, select]);

  const target = useCallback(
    async (selectedId: string | null): Promise<string> =>
      (await creation.current) ?? selectedId ?? (await create()),
    [create],
  );

  return { creating, create, target };
}
