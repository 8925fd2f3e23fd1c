/**
 * A small longest-common-subsequence diff, for showing how a tool changed (description by
 * words, schemas by lines). Common head and tail are cut first, so the usual small edit costs
 * next to nothing; a middle too large for the quadratic table reads as "all removed, all
 * added", which is still correct, just coarser.
 */

/** One run of the diff: kept, only in the old text, or only in the new. */
export interface DiffPart {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** Above this many table cells the middle is not aligned (about 16 MB of Uint32). */
const MAX_CELLS = 4_000_000;

/** Diff two token lists; consecutive tokens of one kind are joined with `joiner`. */
export function diffTokens(a: readonly string[], b: readonly string[], joiner = ''): DiffPart[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const ops: { kind: DiffPart['kind']; token: string }[] = [];
  for (const token of a.slice(0, head)) ops.push({ kind: 'same', token });
  ops.push(...alignMiddle(midA, midB));
  for (const token of a.slice(a.length - tail)) ops.push({ kind: 'same', token });
  const parts: DiffPart[] = [];
  for (const op of ops) {
    const last = parts[parts.length - 1];
    if (last && last.kind === op.kind) last.text += joiner + op.token;
    else parts.push({ kind: op.kind, text: op.token });
  }
  return parts;
}

/** Word diff of two texts; whitespace is kept with the words, so joining the parts rebuilds each text. */
export function diffWords(a: string, b: string): DiffPart[] {
  return diffTokens(words(a), words(b));
}

/** Line diff: one part per line (never joined), for a gutter of + and -. */
export function diffLines(a: string, b: string): DiffPart[] {
  const parts = diffTokens(a.split('\n'), b.split('\n'), '\n');
  return parts.flatMap((p) => p.text.split('\n').map((text) => ({ kind: p.kind, text })));
}

/** A value as the schema diff shows it: JSON with two-space indents and sorted keys. */
export function prettyJson(value: unknown): string {
  if (value === undefined) return '';
  return JSON.stringify(sortKeys(value), null, 2);
}

/** The old text as the parts rebuild it (what the "before" column shows). */
export function oldSide(parts: readonly DiffPart[]): DiffPart[] {
  return parts.filter((p) => p.kind !== 'added');
}

/** The new text as the parts rebuild it (what the "now" column shows). */
export function newSide(parts: readonly DiffPart[]): DiffPart[] {
  return parts.filter((p) => p.kind !== 'removed');
}

function words(text: string): string[] {
  return text.split(/(\s+)/).filter((w) => w !== '');
}

function alignMiddle(
  a: readonly string[],
  b: readonly string[],
): { kind: DiffPart['kind']; token: string }[] {
  if (!a.length || !b.length || (a.length + 1) * (b.length + 1) > MAX_CELLS)
    return [
      ...a.map((token) => ({ kind: 'removed' as const, token })),
      ...b.map((token) => ({ kind: 'added' as const, token })),
    ];
  const w = b.length + 1;
  // lcs[i*w + j]: length of the LCS of a[i..] and b[j..].
  const lcs = new Uint32Array((a.length + 1) * w);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i * w + j] =
        a[i] === b[j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
  const out: { kind: DiffPart['kind']; token: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ kind: 'same', token: a[i] });
      i++;
      j++;
    } else if (lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) out.push({ kind: 'removed', token: a[i++] });
    else out.push({ kind: 'added', token: b[j++] });
  }
  while (i < a.length) out.push({ kind: 'removed', token: a[i++] });
  while (j < b.length) out.push({ kind: 'added', token: b[j++] });
  return out;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
  );
}
