import type { Session } from 'electron';

/**
 * Whether a page of ours may load this URL. The renderer is a local bundle: it needs its own
 * files and in-memory data (images from tool results arrive as data: URLs), nothing from any
 * network. The CSP says the same; this holds even for a frame or worker the CSP would miss.
 * MCP App views come from our own sandbox scheme (served by main, never the network).
 */
export function isAllowedRendererRequest(url: string): boolean {
  return /^(file|data|blob|devtools|chrome-extension|mcp-desk-sandbox):/i.test(url);
}

/** Cancel every request the renderer makes that is not local (no remote content, ever). */
export function blockRemoteContent(session: Pick<Session, 'webRequest'>): void {
  session.webRequest.onBeforeRequest((details, callback) => {
    callback({ cancel: !isAllowedRendererRequest(details.url) });
  });
}
