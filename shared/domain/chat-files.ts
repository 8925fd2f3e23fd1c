/**
 * Local files a person attaches to a chat message: which kinds go to a model, and how large.
 * The renderer checks before it uploads (so the person hears at once); the host checks again.
 */

/**
 * Largest file: its base64 must fit the browser-mode bridge's 8 MiB message cap
 * (electron/headless/bridge-server.ts maxPayload) with room for the envelope.
 */
export const MAX_CHAT_FILE_BYTES = 5 * 1024 * 1024;

/**
 * Most bytes of files one message carries: Gemini takes inline data while the whole request
 * stays under 20 MB, and base64 makes 12 MiB into about 16.8 MB, leaving room for the rest.
 */
export const MAX_MESSAGE_FILE_BYTES = 12 * 1024 * 1024;

/** Most files one message carries. */
export const MAX_FILES_PER_MESSAGE = 10;

/** How a file is sent: as an image, a PDF document, or text. */
export type ChatFileKind = 'image' | 'pdf' | 'text';

/** Images both providers read natively (Gemini: PNG, JPEG, WebP, HEIC; OpenAI: PNG, JPEG, WebP, GIF). */
const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

/** Text files by extension, all sent as UTF-8 text. */
const TEXT_TYPES: Record<string, string> = {
  txt: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  json: 'application/json',
  xml: 'text/xml',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  js: 'text/javascript',
  mjs: 'text/javascript',
  ts: 'text/plain',
  tsx: 'text/plain',
  jsx: 'text/plain',
  py: 'text/x-python',
  rs: 'text/plain',
  go: 'text/plain',
  java: 'text/plain',
  c: 'text/plain',
  h: 'text/plain',
  cpp: 'text/plain',
  sh: 'text/plain',
  yaml: 'text/plain',
  yml: 'text/plain',
  toml: 'text/plain',
  ini: 'text/plain',
  log: 'text/plain',
  sql: 'text/plain',
};

/** What the attach button's file picker offers. */
export const CHAT_FILE_ACCEPT = [...Object.keys(IMAGE_TYPES), 'pdf', ...Object.keys(TEXT_TYPES)]
  .map((ext) => `.${ext}`)
  .join(',');

/** The MIME type and kind a file is sent as, from its declared type or else its name; null: not supported. */
export function chatFileType(
  name: string,
  declared: string,
): { mimeType: string; kind: ChatFileKind } | null {
  const type = declared.toLowerCase().split(';')[0].trim();
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  if (Object.values(IMAGE_TYPES).includes(type)) return { mimeType: type, kind: 'image' };
  if (type === 'application/pdf') return { mimeType: type, kind: 'pdf' };
  if (type.startsWith('text/') || type === 'application/json') return { mimeType: type, kind: 'text' };
  if (IMAGE_TYPES[ext]) return { mimeType: IMAGE_TYPES[ext], kind: 'image' };
  if (ext === 'pdf') return { mimeType: 'application/pdf', kind: 'pdf' };
  if (TEXT_TYPES[ext]) return { mimeType: TEXT_TYPES[ext], kind: 'text' };
  return null;
}

/** The kind of an accepted MIME type (as `chatFileType` returned it). */
export function chatFileKind(mimeType: string): ChatFileKind {
  if (mimeType.startsWith('image/')) return 'image';
  return mimeType === 'application/pdf' ? 'pdf' : 'text';
}

/** "1.2 MB", "850 KB", "12 bytes". */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} ${n === 1 ? 'byte' : 'bytes'}`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** Why a set of files cannot go with one message, or null when it can. */
export function messageFilesProblem(sizes: readonly number[]): string | null {
  if (sizes.length > MAX_FILES_PER_MESSAGE)
    return `at most ${MAX_FILES_PER_MESSAGE} files go with one message`;
  const total = sizes.reduce((n, s) => n + s, 0);
  if (total > MAX_MESSAGE_FILE_BYTES)
    return `the files come to ${formatBytes(total)}; one message carries at most ${formatBytes(MAX_MESSAGE_FILE_BYTES)}`;
  return null;
}
