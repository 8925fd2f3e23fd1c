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

/** The origin of MCP App views (see sandbox-scheme.ts; repeated here so this file stays dependency-free). */
const SANDBOX_ORIGIN = 'mcp-desk-sandbox://sandbox';

/**
 * Whether a request comes from an MCP App view's frame (the sandbox origin). Such a frame
 * runs under the CSP the host built from what the view declared, so its https/wss requests
 * to those declared origins are let through here; the CSP refuses every other one, and our
 * own pages still load nothing remote.
 */
export function isSandboxFrameRequest(url: string, frameOrigin: string | undefined): boolean {
  return frameOrigin === SANDBOX_ORIGIN && /^(https|wss):\/\//i.test(url);
}

/** Cancel every request the renderer makes that is not local, except a view's declared ones (above). */
export function blockRemoteContent(session: Pick<Session, 'webRequest'>): void {
  session.webRequest.onBeforeRequest((details, callback) => {
    const frameOrigin = (details as { frame?: { origin?: string } | null }).frame?.origin;
    callback({
      cancel: !isAllowedRendererRequest(details.url) && !isSandboxFrameRequest(details.url, frameOrigin),
    });
  });
}

/** Device permissions a view may be granted (Electron's names for camera/microphone, location, clipboard writing). */
const VIEW_PERMISSIONS = new Set(['media', 'geolocation', 'clipboard-sanitized-write']);

/**
 * Whether page content may have a web permission. Our own pages never do. An MCP App view
 * (the sandbox origin) may have camera/microphone, location or clipboard writing: its iframe's
 * `allow` attribute carries only what the person granted that view's server, so Chromium never
 * asks on behalf of a view that was not granted it.
 */
export function mayGrantPermission(permission: string, requestingOrigin: string | undefined): boolean {
  return requestingOrigin === SANDBOX_ORIGIN && VIEW_PERMISSIONS.has(permission);
}

/**
 * `scheme://host[:port]` of a URL Electron reports, or undefined. Written by hand because
 * Node's URL gives the origin "null" for a scheme it does not know, such as ours.
 */
export function originOf(url: string | undefined): string | undefined {
  const m = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)/i.exec(url ?? '');
  return m?.[1]?.toLowerCase();
}
