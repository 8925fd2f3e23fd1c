import { useEffect, useState } from 'react';
import type { ToolSearchHit } from '../../../shared/domain/tool-selection.js';
import { useHost } from '../../host/host-context.js';
import { useDebounced } from '../../hooks/use-debounced.js';

/** How long typing must pause before the host ranks the query. */
const DEBOUNCE_MS = 150;

/** The host's ranking of `query` (the chat's tool search): the hits for the query they answer, or null until then. */
export function useToolSearch(query: string): { query: string; hits: ToolSearchHit[] } | null {
  const host = useHost();
  const settled = useDebounced(query.trim(), DEBOUNCE_MS);
  const [result, setResult] = useState<{ query: string; hits: ToolSearchHit[] } | null>(null);
  useEffect(() => {
    if (!settled) return undefined;
    let live = true;
    host.invoke('tools.search', { query: settled, limit: 200 }).then(
      (hits) => {
        if (live) setResult({ query: settled, hits });
      },
      // The literal filter keeps working without the ranking.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [host, settled]);
  return result;
}

/** Why a tool is a hit, in a few words. */
export function explainHit(hit: ToolSearchHit): string {
  const words = hit.terms.length ? hit.terms.join(', ') : '';
  switch (hit.reason) {
    case 'match':
      return `matches ${words}`;
    case 'implied':
      return `matches what the search implies: ${words}`;
    case 'sibling':
      return `beside matching tools of ${hit.serverId}`;
  }
}
