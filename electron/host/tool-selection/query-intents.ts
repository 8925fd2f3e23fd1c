import { searchTerms } from './search-text.js';

/**
 * What a request implies but does not say. People name the thing they want ("save it to
 * /root/notes/x.md", "tickets for next Wednesday"), not the utility a model needs on the way (a
 * file writer, the current date). These cues read such implications from the request's form —
 * paths and their extensions, dates relative to now, links, encoded data, arithmetic — plus a
 * small thesaurus of everyday words for common kinds of tools. Each cue adds words that tool
 * descriptions use; they rank below the request's own words (see EXPANSION_WEIGHT).
 */

/** An added word counts this much of one the person typed. */
export const EXPANSION_WEIGHT = 0.5;

/** A cue: a pattern over the request text, and the words it implies. */
interface Cue {
  test: RegExp;
  words: string;
}

/** File extensions: what kind of file, and so which tools' words. */
const EXTENSIONS: Record<string, string> = {
  md: 'markdown text file',
  markdown: 'markdown text file',
  txt: 'text file',
  log: 'text file',
  pdf: 'pdf document',
  doc: 'word document',
  docx: 'word document docx',
  ppt: 'powerpoint presentation slide',
  pptx: 'powerpoint presentation slide pptx',
  xls: 'excel spreadsheet sheet',
  xlsx: 'excel spreadsheet sheet xlsx',
  csv: 'csv spreadsheet table',
  json: 'json',
  html: 'html web page',
  htm: 'html web page',
  png: 'image picture png',
  jpg: 'image picture jpeg',
  jpeg: 'image picture jpeg',
  gif: 'image picture',
  svg: 'svg image vector',
  webp: 'image picture',
  wav: 'audio music sound',
  mp3: 'audio music sound',
  flac: 'audio music sound',
  ogg: 'audio music sound',
  mp4: 'video',
  mov: 'video',
  zip: 'archive compress',
  py: 'code script python',
  js: 'code script javascript',
  ts: 'code script typescript',
  tsx: 'code script typescript',
  java: 'code java',
  go: 'code go',
  rs: 'code rust',
  sh: 'code shell command',
  bib: 'text reference',
};

/** A local path: absolute (POSIX or Windows), home-relative, or ./relative, with at least one separator. */
const PATH = /(?:^|[\s"'`(])((?:~|\.{1,2})?\/[^\s"'`)]+|[A-Za-z]:\\[^\s"'`)]+)/g;
const URL_PATTERN = /\bhttps?:\/\/\S+/i;
const DOMAIN = /\b[a-z0-9][a-z0-9-]*\.(?:com|org|net|io|dev|ai|cn|co|uk|de|fr|jp|gov|edu|app)\b/i;

const WRITE_VERBS =
  /\b(?:save|saved|saving|write|writing|written|store|export|output|put|create|generate|draft|record|keep)\b/i;
const READ_VERBS = /\b(?:read|open|load|analy[sz]e|parse|extract|look at|inside|contents?|in the file)\b/i;
const LIST_WORDS = /\b(?:folder|directory|directories|files in|what files|list (?:the )?files)\b/i;

const CUES: Cue[] = [
  {
    // Dates relative to now need today's date first.
    test: /\b(?:today|tonight|tomorrow|yesterday|now|currently|this (?:week|weekend|month|year|morning|evening)|next (?:week|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday|days?|months?)|(?:last|past) (?:\d+\s*(?:h|hours?|days?|weeks?|months?)|few|couple|several|two|three|week|month|quarter|year|night)|\d+\s*h\b|(?:near|coming) (?:future|days|weeks|months))\b/i,
    words: 'current time date today',
  },
  {
    test: /\b(?:calculate|compute|estimate|how much|total|sum|balance|percentage|average|ratio)\b/i,
    words: 'calculate calculator math expression',
  },
  { test: /\b[A-Za-z0-9+/]{60,}={0,2}/, words: 'base64 encoded data' },
  // Identifiers whose form says what they name.
  { test: /\bNCT\d{8}\b/, words: 'clinical trial' },
  { test: /\b(?:arxiv:?\s*)?\d{4}\.\d{4,5}(?:v\d+)?\b/i, words: 'arxiv paper' },
  { test: /\b10\.\d{4,9}\/\S+/, words: 'doi paper article' },
  { test: /\b(?:\d{1,3}\.){3}\d{1,3}\b/, words: 'ip address' },
  { test: /\b[\w.+-]+@[\w-]+\.[\w.]+\b/, words: 'email address' },
  { test: URL_PATTERN, words: 'fetch url web page content' },
  { test: /\b(?:ppt|slides?|slide deck|deck|keynote)\b/i, words: 'powerpoint presentation slide' },
  { test: /\b(?:spreadsheet|excel|workbook)\b/i, words: 'excel sheet spreadsheet' },
  { test: /\b(?:word document|word file|docx)\b/i, words: 'word document' },
  { test: /\b(?:plot|graph|visuali[sz]e|diagram|chart)\b/i, words: 'chart diagram generate' },
  {
    test: /\b(?:route|directions|drive|driving|commute|bike|walk|trip|travel)\b/i,
    words: 'route directions geocode location',
  },
  {
    test: /\b(?:nearby|near me|around|within \d+\s*(?:m|km|meters?|kilometers?|miles?))\b/i,
    words: 'nearby places location geocode',
  },
  { test: /\b(?:news|headlines)\b/i, words: 'news articles' },
  { test: /\b(?:stocks?|shares|ticker|market cap(?:italization)?)\b/i, words: 'stock ticker price' },
  { test: /\b(?:search the web|web search|look up|google|find online|references?)\b/i, words: 'web search' },
  {
    test: /\b(?:buy|shop|shopping|prices? (?:at|on)|amazon|ebay|links to buy)\b/i,
    words: 'browser navigate web page',
  },
  { test: /\b(?:papers?|preprints?|research articles?)\b/i, words: 'paper research article search' },
];

/** The words a request implies: each appears once, and none the request already holds. */
export function impliedWords(text: string): string[] {
  const found: string[] = [];
  const paths = [...text.matchAll(PATH)].map((m) => m[1]);
  if (paths.length) {
    found.push('file path');
    if (WRITE_VERBS.test(text)) found.push('write save create');
    if (READ_VERBS.test(text)) found.push('read');
    if (LIST_WORDS.test(text) || paths.some((p) => p.endsWith('/') || !/\.[A-Za-z0-9]{1,8}$/.test(p)))
      found.push('directory list');
    for (const p of paths) {
      const ext = /\.([A-Za-z0-9]{1,8})$/.exec(p)?.[1]?.toLowerCase();
      if (ext && EXTENSIONS[ext]) found.push(EXTENSIONS[ext]);
    }
  }
  if (!URL_PATTERN.test(text) && DOMAIN.test(text)) found.push('domain website');
  for (const cue of CUES) if (cue.test.test(text)) found.push(cue.words);
  const own = new Set(searchTerms(text));
  const out: string[] = [];
  for (const t of searchTerms(found.join(' '))) {
    if (!own.has(t) && !out.includes(t)) out.push(t);
  }
  return out;
}
