import { useEffect } from 'react';
import { chatHandoffStore } from '../store/chat-handoff-store.js';

/**
 * Call `onHandoff` each time a view hands something to the chat (the shell then shows Chat).
 * A store subscription, not a selector: it runs inside the click that made the hand-off, so the
 * view switch lands in the same render as the composer's new draft.
 */
export function useChatHandoffNavigation(onHandoff: () => void): void {
  useEffect(
    () =>
      chatHandoffStore.subscribe((s, prev) => {
        if (s.count !== prev.count) onHandoff();
      }),
    [onHandoff],
  );
}
