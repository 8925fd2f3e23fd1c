import { stemmer } from 'stemmer';

/**
 * The words tool search compares: identifiers split where people see word breaks (camelCase,
 * snake_case, kebab-case, dots, digits), lower-cased, common words dropped, English words
 * stemmed (Porter) so "saving", "saved" and "save" meet. Text in Chinese, Japanese or Korean
 * has no spaces: it is cut into overlapping pairs of characters, which match such text
 * without a dictionary. One function serves the index and the queries, so both sides agree.
 */

/** Words that say nothing about what a tool does (English function words, MCP boilerplate, politeness). */
const STOP_WORDS = new Set(
  (
    'a an and any are as at be been but by can could did do does for from had has have he her his how i ' +
    'if in into is it its me my of on or our she so than that the their them then there these they this ' +
    'those to too us was we were what when where which while who whom why will with would you your ' +
    'about all also am just not no yes only own same some such very should may might must shall ' +
    'mcp server servers tool tools model context protocol please help want need like give let make ' +
    'tell show get use using used via based provide provides providing return returns etc e g ie eg'
  ).split(' '),
);

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/** Stems are cached: the same few thousand words come back on every query and every tool. */
const stems = new Map<string, string>();
const MAX_STEMS = 50_000;

/** Words Porter's rules fold into another word with a different meaning ("news" is not "new"). */
const KEEP = new Set(['news', 'less', 'series', 'species']);

function stem(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    s = word.length > 3 && !KEEP.has(word) ? stemmer(word) : word;
    if (stems.size >= MAX_STEMS) stems.clear();
    stems.set(word, s);
  }
  return s;
}

/**
 * Opaque data pasted into a request — base64, hashes, keys, tokens: 32 or more letters and
 * digits with no word break (a '/' in base64 only cuts it into such runs), holding a digit or a base64 sign. Split at its case changes it
 * would turn into dozens of random two-letter "words" that each match some tool by chance.
 */
const OPAQUE = /[A-Za-z0-9+]{32,}={0,2}/g;
const isOpaque = (run: string) => /[0-9+=]/.test(run);

/** Split an identifier or a sentence into raw words (not yet lower-cased or stemmed). */
export function splitWords(source: string): string[] {
  const words: string[] = [];
  const text = source.replace(OPAQUE, (run) => (isOpaque(run) ? ' ' : run));
  // A camelCase word is also kept whole: "GitHub" is "git hub" and "github" (as in get_github_...).
  for (const m of text.matchAll(/\b[A-Za-z]*[a-z][A-Z][A-Za-z]*\b/g)) words.push(m[0]);
  const spaced = text
    // camelCase and PascalCase: getStoryWithComments, HTMLParser.
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  // Letters and digits stay together (base64, mp3, context7, 9to5mac): split, they mean nothing.
  for (const piece of spaced.split(/[^\p{L}\p{N}]+/u)) {
    if (!piece) continue;
    if (CJK.test(piece)) words.push(...cjkWords(piece));
    else words.push(piece);
  }
  return words;
}

/** A run of CJK characters mixed with other letters: latin parts as words, CJK runs as pairs. */
function cjkWords(piece: string): string[] {
  const out: string[] = [];
  let last = 0;
  for (const m of piece.matchAll(CJK_RUN)) {
    if (m.index > last) out.push(piece.slice(last, m.index));
    const run = [...m[0]];
    if (run.length === 1) out.push(run[0]);
    for (let i = 0; i + 1 < run.length; i++) out.push(run[i] + run[i + 1]);
    last = m.index + m[0].length;
  }
  if (last < piece.length) out.push(piece.slice(last));
  return out;
}

/** One word as the index keeps it, or undefined for a word that carries no meaning. */
export function normalizeWord(word: string): string | undefined {
  const w = word.toLowerCase();
  if (STOP_WORDS.has(w)) return undefined;
  if (CJK.test(w)) return w;
  // Single characters match everything; long digit runs (phone numbers, ids) match nothing.
  if (w.length < 2 || /^\d{7,}$/.test(w)) return undefined;
  return stem(w);
}

/** The search terms of a text, in order, repeats kept (BM25 counts them). */
export function searchTerms(text: string): string[] {
  const out: string[] = [];
  for (const w of splitWords(text)) {
    const t = normalizeWord(w);
    if (t) out.push(t);
  }
  return out;
}
