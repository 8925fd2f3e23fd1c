import type { Finding } from './findings.js';
import { foldText, unfold } from './fold-text.js';
import { findHiddenUnicode } from './hidden-unicode.js';
import { suspiciousUrl, TEXT_PATTERNS, URL_RE } from './text-patterns.js';

/** Where a text was found, and whether it is a tool's definition or data a tool returned. */
export interface TextSource {
  field: Finding['field'];
  /** Results are data: only the injection markers count there, not e.g. a link with a query string. */
  mode: 'definition' | 'result';
}

/** Texts past this many characters are read up to it: markers live near the surface, and results can be huge. */
const MAX_SCAN = 200_000;

/** Every finding in one text: hidden characters, text for the model, secrets, exfiltration. */
export function inspectText(source: TextSource, text: string): Finding[] {
  const scanned = text.length > MAX_SCAN ? text.slice(0, MAX_SCAN) : text;
  const findings = findHiddenUnicode(source.field, scanned);
  const folded = foldText(scanned);
  for (const pattern of TEXT_PATTERNS) {
    if (source.mode === 'result' && !pattern.inResults) continue;
    for (const m of folded.text.matchAll(pattern.re)) {
      // Patterns may consume one leading delimiter; the passage starts at the marker itself.
      const lead = /^[^\w~$%<[|.\\/]/u.test(m[0]) ? 1 : 0;
      const [start, end] = unfold(folded, m.index + lead, m.index + m[0].length);
      findings.push({ kind: pattern.kind, field: source.field, start, end, detail: pattern.detail });
    }
  }
  if (source.mode === 'definition') {
    for (const m of folded.text.matchAll(URL_RE)) {
      const why = suspiciousUrl(m[0]);
      if (!why) continue;
      const [start, end] = unfold(folded, m.index, m.index + m[0].length);
      findings.push({ kind: 'exfiltration', field: source.field, start, end, detail: why });
    }
  }
  return findings;
}

/** A name the text tells the model to call ("call the `send_email` tool"), with its offsets. */
export interface ToolReference {
  name: string;
  start: number;
  end: number;
}

const CALL_TOOL = [
  /\b(?:call|invoke|use|run|trigger|execute)\s+(?:the\s+)?[`'"]?([A-Za-z][\w.-]*)[`'"]?\s+tool\b/giu,
  /\bthe\s+[`'"]?([A-Za-z][\w.-]*)[`'"]?\s+tool\s+(?:must|should|will|needs?\s+to|has\s+to|is\s+to)\b/giu,
  /\b(?:call|invoke|use|run)\s+[`'"]([A-Za-z][\w.-]*)[`'"]\s+(?:first|before|instead|after|afterwards)\b/giu,
];

/** Names that words like "use the ... tool" take which are not tool names. */
const NOT_NAMES = new Set([
  'this',
  'that',
  'same',
  'any',
  'other',
  'another',
  'each',
  'every',
  'a',
  'an',
  'next',
]);

/** Tool names the text orders the model to call, for the catalog-aware check in inspect-tools.ts. */
export function toolReferences(text: string): ToolReference[] {
  const folded = foldText(text);
  const out: ToolReference[] = [];
  for (const re of CALL_TOOL)
    for (const m of folded.text.matchAll(re)) {
      const name = m[1];
      if (NOT_NAMES.has(name.toLowerCase())) continue;
      const [start, end] = unfold(folded, m.index, m.index + m[0].length);
      out.push({ name, start, end });
    }
  return out;
}
