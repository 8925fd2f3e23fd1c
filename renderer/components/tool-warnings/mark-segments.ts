import type { ToolWarning, WarningPassage } from '../../../shared/domain/tool-trust.js';
import { WARNING_LABELS } from './warning-labels.js';

/** One matched stretch of a field's text, and the kinds of warning that matched it. */
export interface MarkRange {
  start: number;
  end: number;
  labels: string[];
}

/** A run of text: marked (with why) or not, and its diff kind when it is part of a diff's side. */
export interface Segment {
  text: string;
  labels: string[] | null;
  kind: 'same' | 'added' | 'removed';
}

/** A field's text once, with every range any warning matched in it. */
export interface MarkedField {
  field: WarningPassage['field'];
  text: string;
  ranges: MarkRange[];
}

/**
 * The passages of all `warnings` gathered per field: each field's text once, with the ranges of
 * every warning that matched in it (a description matched six times is one text with six marks).
 */
export function fieldsOf(warnings: readonly ToolWarning[]): MarkedField[] {
  const byField = new Map<string, MarkedField>();
  for (const w of warnings)
    for (const p of w.passages) {
      let entry = byField.get(p.field);
      if (!entry) byField.set(p.field, (entry = { field: p.field, text: p.text, ranges: [] }));
      // A longer copy of the field's text (another check kept more of it) is the one shown.
      if (p.text.length > entry.text.length) entry.text = p.text;
      entry.ranges.push({ start: p.start, end: p.end, labels: [WARNING_LABELS[w.kind]] });
    }
  return [...byField.values()];
}

/** The ranges matched in one field (e.g. the description), for marking that text where it is shown. */
export function rangesIn(warnings: readonly ToolWarning[], field: WarningPassage['field']): MarkRange[] {
  return fieldsOf(warnings).find((f) => f.field === field)?.ranges ?? [];
}

/**
 * `parts` (a diff side, or one plain run) cut at every range boundary, each piece marked with the
 * labels of the range covering it. Overlapping ranges merge into one mark naming both kinds.
 */
export function markParts(
  parts: readonly { text: string; kind: Segment['kind'] }[],
  marked: readonly MarkRange[],
): Segment[] {
  const ranges = mergeOverlaps(marked);
  const out: Segment[] = [];
  let offset = 0;
  for (const part of parts) {
    const from = offset;
    const to = offset + part.text.length;
    offset = to;
    const cuts = new Set([from, to]);
    for (const r of ranges) {
      if (r.start > from && r.start < to) cuts.add(r.start);
      if (r.end > from && r.end < to) cuts.add(r.end);
    }
    const points = [...cuts].sort((a, b) => a - b);
    for (let i = 0; i + 1 < points.length; i++) {
      const [a, b] = [points[i], points[i + 1]];
      const labels = [
        ...new Set(
          ranges.filter((r) => r.start <= a && r.end >= b && r.end > r.start).flatMap((r) => r.labels),
        ),
      ];
      const text = part.text.slice(a - from, b - from);
      const last = out[out.length - 1];
      const same = last && last.kind === part.kind && sameLabels(last.labels, labels.length ? labels : null);
      if (same) last.text += text;
      else out.push({ text, kind: part.kind, labels: labels.length ? labels : null });
    }
  }
  return out;
}

/**
 * Overlapping ranges as one range naming every kind that matched in it: a passage found by two
 * checks (an instruction inside a run of hidden characters) is one mark, never cut into pieces
 * that would split the hidden run it sits in.
 */
function mergeOverlaps(ranges: readonly MarkRange[]): MarkRange[] {
  const sorted = ranges.filter((r) => r.end > r.start).sort((a, b) => a.start - b.start);
  const out: MarkRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.start < last.end) {
      last.end = Math.max(last.end, r.end);
      last.labels = [...new Set([...last.labels, ...r.labels])];
    } else out.push({ start: r.start, end: r.end, labels: [...r.labels] });
  }
  return out;
}

/** How much unmarked text stays on each side of a mark when a long field is shortened. */
const CONTEXT = 160;

/**
 * Long unmarked stretches shortened to their ends ("…" between), so a long field shows its
 * marks and some context around each, not pages of text. Marked text is never cut.
 */
export function elide(segments: readonly Segment[], context = CONTEXT): Segment[] {
  return segments.map((s, i) => {
    const first = i === 0;
    const last = i === segments.length - 1;
    if (s.labels || s.text.length <= 2 * context + 1 || (first && last)) return s;
    if (first) return { ...s, text: `…${s.text.slice(-context)}` };
    if (last) return { ...s, text: `${s.text.slice(0, context)}…` };
    return { ...s, text: `${s.text.slice(0, context)} … ${s.text.slice(-context)}` };
  });
}

function sameLabels(a: string[] | null, b: string[] | null): boolean {
  if (!a || !b) return a === b;
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
