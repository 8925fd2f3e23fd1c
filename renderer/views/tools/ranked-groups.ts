import type { CatalogTool } from '../../../shared/domain/catalog.js';
import type { ToolSearchHit } from '../../../shared/domain/tool-selection.js';
import { explainHit } from './use-tool-search.js';

const keyOf = (serverId: string, tool: string) => `${serverId}/${tool}`;

/**
 * The Tools view's search results: tools whose text holds the query literally first, then the
 * host's ranked hits, grouped by server in the order their best tool ranks; `why` says for
 * each tool why it is there.
 */
export function rankedGroups(
  tools: readonly CatalogTool[],
  literal: readonly CatalogTool[],
  hits: readonly ToolSearchHit[],
): { groups: [string, CatalogTool[]][]; why: Map<string, string> } {
  const byKey = new Map(tools.map((t) => [keyOf(t.serverId, t.tool.name), t]));
  const why = new Map<string, string>();
  const ordered: CatalogTool[] = [];
  for (const t of literal) {
    const key = keyOf(t.serverId, t.tool.name);
    why.set(key, 'contains the search text');
    ordered.push(t);
  }
  for (const h of hits) {
    const key = keyOf(h.serverId, h.tool);
    const t = byKey.get(key);
    if (!t || why.has(key)) continue;
    why.set(key, explainHit(h));
    ordered.push(t);
  }
  const groups = new Map<string, CatalogTool[]>();
  for (const t of ordered) groups.set(t.serverId, [...(groups.get(t.serverId) ?? []), t]);
  return { groups: [...groups], why };
}
