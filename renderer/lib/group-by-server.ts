/** Group catalog entries by server, keeping servers and entries in a stable order. */
export function groupByServer<T extends { serverId: string }>(items: T[]): [string, T[]][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const list = groups.get(item.serverId);
    if (list) list.push(item);
    else groups.set(item.serverId, [item]);
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/** Case-insensitive match of a search box against a few text fields. */
export function matches(query: string, ...fields: (string | undefined)[]): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return fields.some((f) => f !== undefined && f.toLowerCase().includes(q));
}
