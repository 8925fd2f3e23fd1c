import { remove as removeConfusables } from 'confusables';
import { stripHidden } from './hidden-unicode.js';

/**
 * Text as the patterns read it: lookalike letters folded to ASCII (Cyrillic "о" in "ignоre"),
 * compatibility forms unfolded (NFKC: fullwidth, ligatures), hidden characters dropped
 * ("ig\u200Bnore") and tag characters read as the ASCII they hide, with a map back to the original offsets so passages point at what the
 * person sees. Plain ASCII (the common case, and big results) is returned as is.
 */
export interface FoldedText {
  text: string;
  /** `map[i]` is the offset in the original of folded character i; `map[text.length]` is its length. */
  map: number[] | null;
}

// eslint-disable-next-line no-control-regex
const ASCII = /^[\u0000-\u007f]*$/;

/** Fold `text` for matching (see FoldedText). */
export function foldText(text: string): FoldedText {
  if (ASCII.test(text)) return { text, map: null };
  let out = '';
  const map: number[] = [];
  let offset = 0;
  let inTags = false;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    const tag = cp >= 0xe0020 && cp <= 0xe007e;
    // Tag characters are invisible ASCII: read them as the ASCII they hide, as a word of their own.
    let folded = tag ? String.fromCharCode(cp - 0xe0000) : foldChar(ch);
    if (tag !== inTags) folded = ` ${folded}`;
    inTags = tag;
    for (let i = 0; i < folded.length; i++) map.push(offset);
    out += folded;
    offset += ch.length;
  }
  map.push(offset);
  return { text: out, map };
}

const cache = new Map<string, string>();

function foldChar(ch: string): string {
  const hit = cache.get(ch);
  if (hit !== undefined) return hit;
  if (stripHidden(ch) === '') return remember(ch, '');
  const nfkc = ch.normalize('NFKC');
  const folded = removeConfusables(nfkc);
  return remember(ch, folded.length > 0 ? folded : nfkc);
}

function remember(ch: string, folded: string): string {
  if (cache.size < 20_000) cache.set(ch, folded);
  return folded;
}

/** A [start, end) range of the folded text, back in the original's offsets. */
export function unfold(folded: FoldedText, start: number, end: number): [number, number] {
  if (!folded.map) return [start, end];
  const from = folded.map[start] ?? folded.map[folded.map.length - 1];
  // The end maps past the last matched character, whatever it unfolded from.
  const map = folded.map;
  const last = end > start ? map[end - 1] : from;
  let i = end;
  while (i < map.length - 1 && map[i] <= last) i++;
  const to = end > start ? map[i] : from;
  return [from, to];
}
