import type { Session } from 'electron';
import type { AppPermission } from '../../shared/domain/mcp-apps.js';

/**
 * Whether a page of ours may load this URL. The renderer is a local bundle: it needs its own
 * files and in-memory data (images from tool results arrive as data: URLs), nothing from any
 * network. The CSP says the same; this holds even for a frame or worker the CSP would miss.
 * MCP App views come from our own sandbox scheme (served by main, never the network).
 */
export function isAllowedRendererRequest(url: string): boolean {
  return /^(file|data|blob|devtools|chrome-extension|mcp-desk-sandbox):/i.test(url);
}

/** What the filter and the permission check know of the open view at an origin. */
export interface ViewAtOrigin {
  /** The plain origins the view declared (`https://api.example`, `https://*.tiles.example`). */
  declared: readonly string[];
  /** The device permissions the person granted the view's server (and the view asked for). */
  granted: readonly AppPermission[];
}

/** The open view whose sandbox origin this is (`mcp-desk-sandbox://<viewId>`), if any. */
export type ViewLookup = (origin: string | undefined) => ViewAtOrigin | undefined;

const DEFAULT_PORT: Record<string, string> = { 'https:': '443', 'wss:': '443', 'http:': '80', 'ws:': '80' };

/**
 * Whether `url` is within a declared origin, the way a CSP source matches: the same scheme
 * (an https source also covers wss), the host exactly or, for `*.`, any subdomain, and the
 * declared port or the scheme's default.
 */
export function matchesDeclared(url: string, declared: string): boolean {
  const m = /^(https|wss|http|ws):\/\/(\*\.)?([^:/]+)(?::(\d{1,5}))?$/i.exec(declared);
  if (!m) return false;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  const scheme = `${m[1].toLowerCase()}:`;
  const schemeOk =
    target.protocol === scheme ||
    (scheme === 'https:' && target.protocol === 'wss:') ||
    (scheme === 'http:' && target.protocol === 'ws:');
  const host = m[3].toLowerCase();
  const hostOk = m[2] ? target.hostname.endsWith(`.${host}`) : target.hostname === host;
  const port = target.port || DEFAULT_PORT[target.protocol];
  // An upgraded scheme keeps its default port (https and wss: 443).
  const portOk = port === (m[4] ?? DEFAULT_PORT[target.protocol]);
  return schemeOk && hostOk && portOk;
}

/**
 * Whether a request from a frame at `frameOrigin` goes to the network: only from an open view's
 * own origin, only over https/wss, and only to an origin that view declared. Its CSP says the
 * same; this holds per view even if a CSP were missing, and a view can never borrow another's.
 */
export function isViewRequestAllowed(
  url: string,
  frameOrigin: string | undefined,
  views: ViewLookup,
): boolean {
  const view = views(frameOrigin);
  if (!view || !/^(https|wss):\/\//i.test(url)) return false;
  return view.declared.some((d) => matchesDeclared(url, d));
}

/** Cancel every request the renderer makes that is not local, except a view's declared ones (above). */
export function blockRemoteContent(session: Pick<Session, 'webRequest'>, views: ViewLookup): void {
  session.webRequest.onBeforeRequest((details, callback) => {
    const frameOrigin = (details as { frame?: { origin?: string } | null }).frame?.origin;
    callback({
      cancel:
        !isAllowedRendererRequest(details.url) && !isViewRequestAllowed(details.url, frameOrigin, views),
    });
  });
}

/** Electron's permission names for what a view may be granted. */
const VIEW_PERMISSIONS: Record<string, (media: readonly string[]) => AppPermission[]> = {
  // Camera for video, microphone for audio; a check without a media type needs either.
  media: (media) =>
    media.length === 0
      ? []
      : media.map((m) =>
          m === 'video' ? 'camera' : m === 'audio' ? 'microphone' : ('unknown' as AppPermission),
        ),
  geolocation: () => ['geolocation'],
  'clipboard-sanitized-write': () => ['clipboardWrite'],
};

/**
 * Whether page content may have a web permission. Our own pages never do. An MCP App view may
 * have camera/microphone, location or clipboard writing only when the person granted that
 * view's server that very permission: the grant is matched to the view by its own origin, so
 * one view never rides on another's. `media` names the media types asked for (video, audio).
 */
export function mayGrantPermission(
  permission: string,
  requestingOrigin: string | undefined,
  views: ViewLookup,
  media: readonly string[] = [],
): boolean {
  const view = views(requestingOrigin);
  const needs = VIEW_PERMISSIONS[permission];
  if (!view || !needs) return false;
  const needed = needs(media);
  if (needed.length === 0) return view.granted.includes('camera') || view.granted.includes('microphone');
  return needed.every((p) => view.granted.includes(p));
}

/**
 * The origin and media types of a permission request as Electron reports it: a media request
 * names its frame's security origin (a view's inner frame has no URL of its own), others only
 * the frame's last URL.
 */
export function permissionRequestFacts(details: {
  requestingUrl?: string;
  securityOrigin?: string;
  mediaTypes?: readonly string[];
}): { origin: string | undefined; media: readonly string[] } {
  return { origin: details.securityOrigin || details.requestingUrl, media: details.mediaTypes ?? [] };
}

/**
 * `scheme://host[:port]` of a URL Electron reports, or undefined. Written by hand because
 * Node's URL gives the origin "null" for a scheme it does not know, such as ours.
 */
export function originOf(url: string | undefined): string | undefined {
  const m = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)/i.exec(url ?? '');
  return m?.[1]?.toLowerCase();
}
