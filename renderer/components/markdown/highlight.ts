import { createLowlight } from 'lowlight';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import type { Root } from 'hast';

// A handful of grammars keeps the bundle small; unknown languages render as plain text.
const lowlight = createLowlight({
  bash,
  css,
  diff,
  go,
  java,
  javascript,
  json,
  python,
  rust,
  shell,
  sql,
  typescript,
  xml,
  yaml,
});

/** Past this size highlighting costs more than it helps (and blocks the UI thread). */
const MAX_HIGHLIGHT_CHARS = 50_000;

/**
 * The code as a highlighted hast tree (elements and text only, never raw HTML), or null
 * when the language is unknown or the code too large.
 */
export function highlightCode(language: string | null, code: string): Root | null {
  if (!language || code.length > MAX_HIGHLIGHT_CHARS || !lowlight.registered(language)) return null;
  try {
    return lowlight.highlight(language, code);
  } catch {
    return null;
  }
}
