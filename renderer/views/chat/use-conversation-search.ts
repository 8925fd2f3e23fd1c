import { useEffect, useMemo, useState } from 'react';
import type { ConversationMatch, ConversationSummary } from '../../../shared/domain/chat.js';
import { useHost } from '../../host/host-context.js';
import { useDebounced } from '../../hooks/use-debounced.js';

/** The list filtered by a query: titles at once, message text once the host has searched. */
export interface ConversationFilter {
  conversations: ConversationSummary[];
  /** The words around a hit in a message, per conversation found by its text. */
  snippets: ReadonlyMap<string, string>;
  /** The host is still searching message text for the current query. */
  searching: boolean;
}

/**
 * Filters conversations by `query`: the list only has titles, so message text is searched by
 * the host over the stored conversations (debounced, the newest query's answer wins).
 */
export function useConversationSearch(
  conversations: ConversationSummary[],
  query: string,
): ConversationFilter {
  const host = useHost();
  const needle = query.trim().toLowerCase();
  const settled = useDebounced(needle, 200);
  const [found, setFound] = useState<{ query: string; matches: ConversationMatch[] } | null>(null);

  useEffect(() => {
    if (!settled) return undefined;
    let live = true;
    host.invoke('chat.search', { query: settled }).then(
      (matches) => live && setFound({ query: settled, matches }),
      // A failed text search still leaves the title filter working.
      () => live && setFound({ query: settled, matches: [] }),
    );
    return () => {
      live = false;
    };
  }, [host, settled]);

  return useMemo(() => {
    if (!needle) return { conversations, snippets: new Map(), searching: false };
    const matches = found?.query === needle ? found.matches : [];
    const snippets = new Map(matches.filter((m) => m.in === 'message').map((m) => [m.id, m.snippet]));
    const filtered = conversations.filter(
      (c) => c.title.toLowerCase().includes(needle) || snippets.has(c.id),
    );
    return { conversations: filtered, snippets, searching: found?.query !== needle };
  }, [conversations, needle, found]);
}
