/**
 * Links from models and tools are untrusted. Only plain http(s) URLs without embedded
 * credentials may leave the app; everything else (javascript:, file:, data:, custom
 * schemes) stays inert text.
 */

/** The normalised URL when it may be opened, otherwise null. */
export function checkLinkUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password || !url.hostname) return null;
  return url.toString();
}

/**
 * Open a checked link outside the app. In browser mode that is a new tab with no opener;
 * in Electron the main process's window-open handler checks the URL again and hands it to
 * the system browser, so the renderer never needs a privileged channel for this.
 */
export function openExternalLink(raw: string): boolean {
  const safe = checkLinkUrl(raw);
  if (!safe) return false;
  window.open(safe, '_blank', 'noopener,noreferrer');
  return true;
}
