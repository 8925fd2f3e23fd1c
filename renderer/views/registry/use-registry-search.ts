import { useEffect, useState } from 'react';
import type { RegistryEntry } from '../../../shared/domain/registry.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';

/** Results of a registry search, page by page. */
export interface RegistrySearch {
  entries: RegistryEntry[];
  loading: boolean;
  error: HostError | null;
  /** True when the registry has another page. */
  more: boolean;
  loadMore: () => void;
}

interface Results {
  /** The search (query and registry) these results answer. */
  key: string;
  entries: RegistryEntry[];
  cursor?: string;
  error: HostError | null;
}

const PAGE = 20;

/** Search the configured registry for `query` (again whenever `query` or `registryUrl` changes). */
export function useRegistrySearch(query: string, registryUrl: string): RegistrySearch {
  const host = useHost();
  const key = `${registryUrl}\n${query.trim()}`;
  const [results, setResults] = useState<Results | null>(null);
  const [moreFor, setMoreFor] = useState<string | null>(null);

  const fetchPage = (cursor: string | undefined, onDone: (r: Results) => void) =>
    host
      .invoke('registry.search', {
        limit: PAGE,
        ...(query.trim() ? { search: query.trim() } : {}),
        ...(cursor ? { cursor } : {}),
      })
      .then(
        (page) => onDone({ key, entries: page.entries, cursor: page.nextCursor, error: null }),
        (e: unknown) => onDone({ key, entries: [], error: asHostError(e) }),
      );

  useEffect(() => {
    if (!registryUrl) return;
    let live = true;
    // Only the newest search lands: an older answer arriving late is dropped.
    void host
      .invoke('registry.search', { limit: PAGE, ...(query.trim() ? { search: query.trim() } : {}) })
      .then(
        (page) => live && setResults({ key, entries: page.entries, cursor: page.nextCursor, error: null }),
        (e: unknown) => live && setResults({ key, entries: [], error: asHostError(e) }),
      );
    return () => {
      live = false;
    };
  }, [host, key, query, registryUrl]);

  const current = results?.key === key ? results : null;
  return {
    entries: current?.entries ?? [],
    loading: current === null || moreFor === key,
    error: current?.error ?? null,
    more: current?.cursor !== undefined,
    loadMore: () => {
      if (!current?.cursor) return;
      setMoreFor(key);
      void fetchPage(current.cursor, (next) => {
        setMoreFor(null);
        setResults((old) =>
          old?.key === next.key
            ? {
                key: old.key,
                entries: [...old.entries, ...next.entries],
                error: next.error,
                ...(next.error ? {} : next.cursor ? { cursor: next.cursor } : {}),
              }
            : old,
        );
      });
    },
  };
}
