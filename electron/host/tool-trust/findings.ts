import type { ToolWarning, ToolWarningKind, WarningPassage } from '../../../shared/domain/tool-trust.js';

/** One matched passage before it is grouped into a warning: what, where, and why in a phrase. */
export interface Finding {
  kind: ToolWarningKind;
  field: WarningPassage['field'];
  start: number;
  end: number;
  /** A phrase for the reason ("a run of 3 zero-width characters"). */
  detail: string;
  other?: ToolWarning['other'];
  /** The text the offsets are into, where one field has many (the blocks of a result). */
  source?: string;
}

/** Texts longer than this are cut to a window around the passage (so a 1 MB result does not ride along). */
const MAX_TEXT = 1500;
/** How much context a windowed passage keeps on each side. */
const CONTEXT = 240;
/** A warning lists at most this many passages: enough to see the pattern, not a wall. */
const MAX_PASSAGES = 8;

/** A passage over `text`, windowed when the text is long (offsets follow the window). */
export function toPassage(f: Finding, text: string): WarningPassage {
  if (text.length <= MAX_TEXT) return { field: f.field, text, start: f.start, end: f.end };
  const from = Math.max(0, f.start - CONTEXT);
  const to = Math.min(text.length, Math.max(f.end, f.start + 400) + CONTEXT);
  const lead = from > 0 ? '…' : '';
  const tail = to < text.length ? '…' : '';
  const end = Math.min(f.end, to);
  return {
    field: f.field,
    text: `${lead}${text.slice(from, to)}${tail}`,
    start: f.start - from + lead.length,
    end: end - from + lead.length,
  };
}

/** Where a field is, in words ("its description", "the input schema at /properties/path"). */
export function fieldWords(field: WarningPassage['field']): string {
  if (field === 'name') return 'its name';
  if (field === 'title') return 'its title';
  if (field === 'description') return 'its description';
  if (field === 'result') return 'the result';
  const schema = field.startsWith('inputSchema') ? 'input schema' : 'output schema';
  const pointer = field.slice(schema === 'input schema' ? 'inputSchema'.length : 'outputSchema'.length);
  if (pointer.endsWith('#key')) return `a property name in its ${schema} (at ${pointer.slice(0, -4)})`;
  return pointer ? `its ${schema} (at ${pointer})` : `its ${schema}`;
}

const LEADS: Record<ToolWarningKind, string> = {
  'hidden-unicode': 'Hidden characters',
  'model-instructions': 'Text addressed to the model',
  'secret-access': 'Asks for secrets',
  exfiltration: 'May send data away',
  'long-description': 'Unusually long description',
  'mentions-other-tool': 'Mentions another tool',
  shadowing: 'Name clashes with another tool',
};

/** The short label of a kind, for badges and lists. */
export function warningLabel(kind: ToolWarningKind): string {
  return LEADS[kind];
}

/**
 * Findings grouped into one warning per kind (and per other tool, for mentions and shadowing),
 * in the order the kinds were first found. `textOf` gives each field's whole text.
 */
export function groupFindings(
  findings: readonly Finding[],
  textOf: (field: WarningPassage['field']) => string,
): ToolWarning[] {
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    const key = `${f.kind}\u0000${f.other ? `${f.other.serverId}/${f.other.tool}` : ''}`;
    const list = groups.get(key);
    if (list) list.push(f);
    else groups.set(key, [f]);
  }
  const out: ToolWarning[] = [];
  for (const list of groups.values()) {
    const first = list[0];
    const fields = [...new Set(list.map((f) => fieldWords(f.field)))];
    const where = fields.length > 2 ? `${fields.slice(0, 2).join(', ')} and more` : fields.join(' and ');
    const details = [...new Set(list.map((f) => f.detail))];
    const said = details.length > 3 ? `${details.slice(0, 3).join('; ')}; …` : details.join('; ');
    // A name clash and a length are about the whole tool, not a place in it.
    const whole = first.kind === 'shadowing' || first.kind === 'long-description';
    out.push({
      kind: first.kind,
      reason: whole ? `${LEADS[first.kind]}: ${said}.` : `${LEADS[first.kind]} in ${where}: ${said}.`,
      passages: dedupe(list)
        .slice(0, MAX_PASSAGES)
        .map((f) => toPassage(f, f.source ?? textOf(f.field))),
      ...(first.other ? { other: first.other } : {}),
    });
  }
  return out;
}

/** Overlapping matches of one kind in one field (two patterns hit one sentence) count once. */
function dedupe(list: readonly Finding[]): Finding[] {
  const sorted = [...list].sort((a, b) =>
    a.field < b.field ? -1 : a.field > b.field ? 1 : a.start - b.start,
  );
  const out: Finding[] = [];
  for (const f of sorted) {
    const last = out.at(-1);
    if (last && last.field === f.field && last.source === f.source && f.start < last.end) {
      out[out.length - 1] = { ...last, end: Math.max(last.end, f.end) };
      continue;
    }
    out.push(f);
  }
  return out;
}
