import { useMemo } from 'react';
import type { CatalogSnapshot } from '../../shared/domain/catalog.js';
import type { HostError } from '../../shared/domain/server-state.js';
import type { ToolTrust } from '../../shared/domain/tool-trust.js';
import { useSnapshot } from './use-host-state.js';

/** The catalog as the views see it. */
export type CatalogState =
  { kind: 'loading' } | { kind: 'ready'; catalog: CatalogSnapshot } | { kind: 'error'; error: HostError };

/** Live catalog from the store (a snapshot on (re)connect, then every `catalog.changed`). */
export function useCatalog(): CatalogState {
  const s = useSnapshot('catalog');
  return useMemo(() => (s.kind === 'ready' ? { kind: 'ready', catalog: s.value } : s), [s]);
}

/** Each catalog snapshot's tools by `server\0tool`, built once however many cards ask. */
const trustIndex = new WeakMap<CatalogSnapshot, Map<string, ToolTrust | undefined>>();

/** One tool's trust facts (pin, warnings) as the catalog has them now; undefined while it is not offered. */
export function useToolTrust(serverId: string, tool: string): ToolTrust | undefined {
  const s = useSnapshot('catalog');
  return useMemo(() => {
    if (s.kind !== 'ready') return undefined;
    let index = trustIndex.get(s.value);
    if (!index) {
      index = new Map(s.value.tools.map((t) => [`${t.serverId}\0${t.tool.name}`, t.trust]));
      trustIndex.set(s.value, index);
    }
    return index.get(`${serverId}\0${tool}`);
  }, [s, serverId, tool]);
}
