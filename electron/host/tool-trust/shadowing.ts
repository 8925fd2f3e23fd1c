import { remove as removeConfusables } from 'confusables';
import type { CatalogTool } from '../../../shared/domain/catalog.js';
import type { Finding } from './findings.js';
import { stripHidden } from './hidden-unicode.js';

/**
 * Shadowing: a tool whose name is, or looks like, another server's tool, so that a model (or a
 * person reading a list) may pick the wrong one. Names are compared by a skeleton in the spirit
 * of Unicode TR39: hidden characters dropped, NFKC, lookalike letters folded to ASCII (the
 * `confusables` table), case folded, then the ASCII lookalikes TR39 also folds (1/I/| to l,
 * 0 to o, rn to m, vv to w).
 */
export function nameSkeleton(name: string): string {
  const hit = skeletons.get(name);
  if (hit !== undefined) return hit;
  const skeleton = computeSkeleton(name);
  // Catalog snapshots ask again for the same names; bounded so a churning server cannot grow it.
  if (skeletons.size > 50_000) skeletons.clear();
  skeletons.set(name, skeleton);
  return skeleton;
}

const skeletons = new Map<string, string>();

function computeSkeleton(name: string): string {
  const visible = stripHidden(name).normalize('NFKC');
  return removeConfusables(visible)
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[1i|!]/g, 'l')
    .replace(/0/g, 'o')
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w');
}

/** Findings on each tool whose name clashes with a tool of another server. */
export function findShadowing(tools: readonly CatalogTool[]): Map<CatalogTool, Finding[]> {
  const bySkeleton = new Map<string, CatalogTool[]>();
  for (const t of tools) {
    const key = nameSkeleton(t.tool.name);
    const list = bySkeleton.get(key);
    if (list) list.push(t);
    else bySkeleton.set(key, [t]);
  }
  const out = new Map<CatalogTool, Finding[]>();
  for (const group of bySkeleton.values()) {
    if (new Set(group.map((t) => t.serverId)).size < 2) continue;
    for (const t of group)
      for (const other of group) {
        if (other.serverId === t.serverId) continue;
        const same = other.tool.name === t.tool.name;
        const detail = same
          ? `server "${other.serverId}" also offers a tool named "${other.tool.name}"`
          : `its name looks like "${other.tool.name}" of server "${other.serverId}" (they differ only by case or lookalike characters)`;
        const list = out.get(t) ?? [];
        list.push({
          kind: 'shadowing',
          field: 'name',
          start: 0,
          end: t.tool.name.length,
          detail,
          other: { serverId: other.serverId, tool: other.tool.name },
        });
        out.set(t, list);
      }
  }
  return out;
}
