import { useCallback, useEffect, useRef, useState } from 'react';
import type { ConversationsState } from '../../hooks/use-conversations.js';

const STORAGE_KEY = 'mcp-desk.chat.selected';

function remembered(): string | null {
  try {
    return window.sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/**
 * Which conversation is open. A reload reopens the one this tab had open, else the newest;
 * when the open one is deleted (here or in another window) the newest takes its place.
 */
export function useSelection(list: ConversationsState): [string | null, (id: string | null) => void] {
  const [selected, setSelected] = useState<string | null>(remembered);
  // An id chosen here (a conversation just created) may reach us before the list that
  // holds it; it is kept until the list has caught up, instead of being "corrected".
  const chosenAhead = useRef<string | null>(null);

  useEffect(() => {
    try {
      if (selected) window.sessionStorage.setItem(STORAGE_KEY, selected);
      else window.sessionStorage.removeItem(STORAGE_KEY);
    } catch {
      // Without storage a reload opens the newest conversation instead; nothing is lost.
    }
  }, [selected]);

  useEffect(() => {
    if (list.kind !== 'ready') return;
    const listed = selected !== null && list.conversations.some((c) => c.id === selected);
    if (listed) {
      if (chosenAhead.current === selected) chosenAhead.current = null;
      return;
    }
    if (selected !== null && chosenAhead.current === selected) return;
    setSelected(list.conversations[0]?.id ?? null);
  }, [list, selected]);

  const select = useCallback((id: string | null) => {
    chosenAhead.current = id;
    setSelected(id);
  }, []);

  return [selected, select];
}
