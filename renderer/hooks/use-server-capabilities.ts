import { useMemo } from 'react';
import type { ServersState } from './use-servers.js';

/** Ids of connected servers that declared `capability` (e.g. "completions"). */
export function useServersWith(servers: ServersState, capability: string): ReadonlySet<string> {
  return useMemo(() => {
    if (servers.kind !== 'ready') return new Set<string>();
    return new Set(
      servers.servers
        .filter((s) => s.state.kind === 'connected' && capability in s.state.info.capabilities)
        .map((s) => s.id),
    );
  }, [servers, capability]);
}
