/**
 * Decide whether a URL may be handed to the system browser: only http(s), no credentials
 * in it, and a real host. Returns the normalised URL, or undefined to refuse.
 */
export function checkExternalUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username || url.password) return undefined;
  if (!url.hostname) return undefined;
  return url.toString();
}
