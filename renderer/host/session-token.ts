/**
 * The browser-mode session token: the CLI prints `http://127.0.0.1:PORT/#token=...`.
 * We move it out of the URL bar at once (so it is not shared by copy-paste or kept in
 * history) into sessionStorage, which survives a reload of this tab but not a new tab.
 */

const STORAGE_KEY = 'mcp-desk.session-token';

/** Read the token from `#token=` (storing it) or from this tab's sessionStorage. */
export function takeSessionToken(): string | null {
  const fromHash = new URLSearchParams(window.location.hash.replace(/^#/, '')).get('token');
  if (fromHash) {
    try {
      window.sessionStorage.setItem(STORAGE_KEY, fromHash);
    } catch {
      // Storage can be disabled; the token then lives only for this page load.
    }
    const clean = window.location.pathname + window.location.search;
    window.history.replaceState(window.history.state, '', clean);
    return fromHash;
  }
  try {
    return window.sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/** Drop this tab's stored token (the host refused it); a reload then shows the help page. */
export function forgetSessionToken(): void {
  try {
    window.sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing stored where storage is disabled.
  }
}
