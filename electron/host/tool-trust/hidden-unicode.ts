import type { Finding } from './findings.js';

/**
 * Characters a person cannot see but a model reads: bidi controls (reorder what is shown),
 * tag characters (U+E0000 block, an invisible copy of ASCII), zero-width characters and other
 * invisible fillers. Each run of them is one finding, described in words a person can act on.
 */

/** Bidi embeddings, overrides and isolates, plus the marks that steer them. */
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;
/** The tag block: U+E0001 (language tag) and U+E0020–U+E007F (invisible ASCII). */
const TAG = /[\u{E0000}-\u{E007F}]/u;
/** Zero-width space, joiners, word joiner, BOM and the Mongolian vowel separator. */
const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF\u180E]/u;
/**
 * Other characters that render as nothing: invisible operators, Hangul fillers, soft hyphen,
 * the variation selectors supplement (used to smuggle bytes), C0/C1 controls but tab/newline.
 */
const OTHER_INVISIBLE =
  // Variation selectors are listed to be matched one by one, never as part of a sequence.
  // eslint-disable-next-line no-control-regex, no-misleading-character-class
  /[\u2061-\u2064\u{E0100}-\u{E01EF}\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|\u00AD|\u3164|\uFFA0|\u115F|\u1160/u;

const ANY_HIDDEN = new RegExp(
  // eslint-disable-next-line no-misleading-character-class -- see OTHER_INVISIBLE
  `(?:${BIDI.source}|${TAG.source}|${ZERO_WIDTH.source}|${OTHER_INVISIBLE.source})+`,
  'gu',
);

const PICTOGRAPH = /\p{Extended_Pictographic}/u;
/** Letters of scripts that need ZWJ/ZWNJ to shape words (Arabic, Persian, Indic, ...): not Latin. */
const JOINING_LETTER = /[\p{L}\p{M}]/u;
const LATIN_OR_DIGIT = /[\p{Script=Latin}\p{N}]/u;
/** The black flag that starts a subdivision flag (England, Scotland, Wales): tags are its spelling. */
const BLACK_FLAG = '\u{1F3F4}';
const CANCEL_TAG = '\u{E007F}';

/** The visible name of one hidden character, e.g. "U+202E RIGHT-TO-LEFT OVERRIDE". */
export function describeCodePoint(cp: number): string {
  const hex = cp.toString(16).toUpperCase().padStart(4, '0');
  const name = NAMES[cp];
  return name ? `U+${hex} ${name}` : `U+${hex}`;
}

const NAMES: Record<number, string> = {
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x2060: 'WORD JOINER',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0x00ad: 'SOFT HYPHEN',
};

/** Every run of hidden characters in `text`, except the legitimate uses named above. */
export function findHiddenUnicode(field: Finding['field'], text: string): Finding[] {
  const out: Finding[] = [];
  for (const m of text.matchAll(ANY_HIDDEN)) {
    const run = m[0];
    const start = m.index;
    const end = start + run.length;
    if (isLegitimate(text, run, start, end)) continue;
    out.push({ kind: 'hidden-unicode', field, start, end, detail: describeRun(run) });
  }
  return out;
}

/** Emoji sequences, subdivision flags and joiners inside words of scripts that need them. */
function isLegitimate(text: string, run: string, start: number, end: number): boolean {
  const before = lastCodePoint(text.slice(0, start));
  const after = firstCodePoint(text.slice(end));
  const chars = [...run];
  // A lone joiner between two emoji (family, profession sequences) or two non-Latin letters.
  if (chars.length === 1 && (run === '\u200D' || run === '\u200C')) {
    if (PICTOGRAPH.test(before) && PICTOGRAPH.test(after)) return true;
    const joins = (c: string) => JOINING_LETTER.test(c) && !LATIN_OR_DIGIT.test(c);
    if (joins(before) && joins(after)) return true;
  }
  // A byte order mark at the very start is an encoding leftover, not a message.
  if (run === '\uFEFF' && start === 0) return true;
  // 🏴 followed by tag letters and CANCEL TAG is how subdivision flags are spelt.
  if (before === BLACK_FLAG && chars.every((c) => TAG.test(c)) && chars.at(-1) === CANCEL_TAG)
    return chars.length <= 7;
  return false;
}

function describeRun(run: string): string {
  const chars = [...run];
  const tags = chars.filter((c) => TAG.test(c));
  if (tags.length > 0) {
    const hidden = tags
      .map((c) => (c.codePointAt(0) ?? 0) - 0xe0000)
      .filter((cp) => cp >= 0x20 && cp < 0x7f)
      .map((cp) => String.fromCharCode(cp))
      .join('');
    const spelt = hidden.trim() ? `, which spell out hidden text: "${clip(hidden, 120)}"` : '';
    return `${tags.length} invisible tag character${tags.length === 1 ? '' : 's'}${spelt}`;
  }
  if (chars.some((c) => BIDI.test(c)))
    return `bidirectional control characters (${distinct(chars)}) that can make text display differently from what the model reads`;
  if (chars.some((c) => ZERO_WIDTH.test(c)))
    return chars.length === 1
      ? `a zero-width character (${distinct(chars)})`
      : `a run of ${chars.length} zero-width characters (${distinct(chars)})`;
  return `invisible characters (${distinct(chars)})`;
}

function distinct(chars: readonly string[]): string {
  const names = [...new Set(chars.map((c) => describeCodePoint(c.codePointAt(0) ?? 0)))];
  return names.length > 3 ? `${names.slice(0, 3).join(', ')}, …` : names.join(', ');
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function lastCodePoint(text: string): string {
  const chars = [...text.slice(-2)];
  return chars.at(-1) ?? '';
}

function firstCodePoint(text: string): string {
  return [...text.slice(0, 2)][0] ?? '';
}

/** `text` without any hidden character: what a person sees (used to compare names). */
export function stripHidden(text: string): string {
  return text.replace(ANY_HIDDEN, '');
}
