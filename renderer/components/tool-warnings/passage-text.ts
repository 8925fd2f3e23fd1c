import type { WarningPassage } from '../../../shared/domain/tool-trust.js';

/**
 * Passages made readable: characters that render as nothing (zero-width, bidi controls, tag
 * characters) are shown as visible tokens, tag runs as the ASCII they hide, so a person sees
 * what the model reads. Kept apart from the host's detector on purpose: the renderer only shows.
 */
export type PassagePiece = { text: string } | { hidden: string };

// These characters are the point: each is shown, never part of a sequence.
const HIDDEN =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class
  /[\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF\u180E\u061C\u00AD\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]+/gu;

/** `text` split into visible text and hidden runs (each described in words). */
export function visiblePieces(text: string): PassagePiece[] {
  const out: PassagePiece[] = [];
  let last = 0;
  for (const m of text.matchAll(HIDDEN)) {
    if (m.index > last) out.push({ text: text.slice(last, m.index) });
    out.push({ hidden: describeHidden(m[0]) });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  return out;
}

function describeHidden(run: string): string {
  const chars = [...run];
  const tagText = chars
    .map((c) => (c.codePointAt(0) ?? 0) - 0xe0000)
    .filter((cp) => cp >= 0x20 && cp < 0x7f)
    .map((cp) => String.fromCharCode(cp))
    .join('');
  if (tagText.trim()) return `hidden text: “${tagText}”`;
  const codes = [
    ...new Set(chars.map((c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`)),
  ];
  return `${chars.length} invisible: ${codes.slice(0, 3).join(' ')}${codes.length > 3 ? ' …' : ''}`;
}

/** Where a passage is, in words ("description", "input schema /properties/path"). */
export function fieldLabel(field: WarningPassage['field']): string {
  if (field === 'result') return 'result';
  if (field === 'name' || field === 'title' || field === 'description') return field;
  const input = field.startsWith('inputSchema');
  const pointer = field
    .slice(input ? 'inputSchema'.length : 'outputSchema'.length)
    .replace(/#key$/, ' (name)');
  return `${input ? 'input' : 'output'} schema${pointer ? ` ${pointer}` : ''}`;
}
