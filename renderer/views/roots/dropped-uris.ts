/**
 * file:// URIs from a drop's text/uri-list (RFC 2483: one per line, `#` lines are comments).
 * Browsers never expose a dropped folder's path, so this is the only thing a drop can carry
 * there; Electron's real paths come from the preload (not wired yet).
 */
export function fileUrisFromUriList(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith('#') && /^file:/i.test(line));
}
