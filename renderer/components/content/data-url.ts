/**
 * data: URLs for server-supplied media. The mime type and payload come from a server, so
 * both are checked: only the expected media family, and only base64 characters, so a
 * crafted value cannot smuggle anything else into the attribute.
 */

const BASE64 = /^[A-Za-z0-9+/=\r\n]*$/;
const MIME = /^(image|audio|video)\/[A-Za-z0-9.+-]{1,100}$/;

/** A data: URL for `family` media, or null when the server's values do not look right. */
export function mediaDataUrl(
  family: 'image' | 'audio',
  mimeType: string | undefined,
  base64: string,
): string | null {
  if (!mimeType || !MIME.test(mimeType) || !mimeType.startsWith(`${family}/`)) return null;
  if (!BASE64.test(base64)) return null;
  return `data:${mimeType};base64,${base64.replace(/[\r\n]/g, '')}`;
}

/** Approximate decoded size of a base64 payload, for "binary, 12 KB" labels. */
export function base64Bytes(base64: string): number {
  const clean = base64.replace(/[\r\n=]/g, '');
  return Math.floor((clean.length * 3) / 4);
}

/** Human-readable byte count. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Blobs larger than this are not decoded for display. */
const MAX_TEXT_BLOB = 1024 * 1024;

/**
 * A base64 blob whose mime type says it is text, decoded as UTF-8 (servers often send
 * text as blobs); null when it is not text, too large, or not valid UTF-8.
 */
export function decodeTextBlob(mimeType: string | undefined, base64: string): string | null {
  if (!mimeType || !/^(text\/|application\/(json|xml|yaml|javascript)\b|[^;]*\+(json|xml)\b)/i.test(mimeType))
    return null;
  if (base64Bytes(base64) > MAX_TEXT_BLOB) return null;
  try {
    const binary = atob(base64.replace(/[\r\n]/g, ''));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}
