/** Past this many nodes the walk stops and the size so far stands (a result with millions of items). */
const MAX_NODES = 250_000;

/**
 * The length JSON.stringify would give `value`, computed without building the string: one walk
 * whose cost follows the number of values, not their bytes (a 50 MB text costs one `.length`).
 * Escapes inside strings are not counted (a newline counts one character, not two), so it is
 * exact for plain text and a close floor otherwise; good enough for "bytes in and out" while
 * costing nothing measurable on the tool-call path. Very large trees stop at MAX_NODES values.
 */
export function jsonSize(value: unknown): number {
  const budget = { nodes: MAX_NODES };
  return sizeOf(value, budget);
}

function sizeOf(value: unknown, budget: { nodes: number }): number {
  if (--budget.nodes < 0) return 0;
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean':
      return value ? 4 : 5;
    case 'object': {
      if (value === null) return 4;
      if (Array.isArray(value)) {
        let n = 2 + Math.max(0, value.length - 1);
        for (const item of value) n += item === undefined ? 4 : sizeOf(item, budget);
        return n;
      }
      let n = 2;
      let first = true;
      for (const key in value) {
        if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
        const v = (value as Record<string, unknown>)[key];
        if (v === undefined || typeof v === 'function') continue;
        n += (first ? 0 : 1) + key.length + 3 + sizeOf(v, budget);
        first = false;
      }
      return n;
    }
    default:
      return 0;
  }
}
