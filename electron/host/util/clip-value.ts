/** How far clipValue cuts a JSON value. */
export interface ClipOptions {
  /** Longest string kept whole. */
  stringChars: number;
  /** Most array items (and object keys) kept. */
  items: number;
  /** Deepest nesting kept. */
  depth: number;
}

/**
 * A copy of a JSON value small enough to show: long strings, long arrays, wide objects and
 * deep nesting are cut, each cut saying how much was there. Walks only what it keeps, so a
 * 50 MB string or a 200,000-item array costs no more than a small message.
 */
export function clipValue(value: unknown, opts: ClipOptions, depth = 0): unknown {
  if (typeof value === 'string')
    return value.length > opts.stringChars
      ? `${value.slice(0, opts.stringChars)}… (${value.length.toLocaleString('en-US')} chars)`
      : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= opts.depth) return '… (nested too deep)';
  if (Array.isArray(value)) {
    const kept = value.slice(0, opts.items).map((v) => clipValue(v, opts, depth + 1));
    if (value.length > opts.items)
      kept.push(`… (${(value.length - opts.items).toLocaleString('en-US')} more items)`);
    return kept;
  }
  const out: Record<string, unknown> = {};
  let n = 0;
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    if (n++ >= opts.items) {
      out['…'] = 'more keys cut';
      break;
    }
    out[key] = clipValue((value as Record<string, unknown>)[key], opts, depth + 1);
  }
  return out;
}
