import type { AppCspDomains, AppPermission } from '../../../shared/domain/mcp-apps.js';

/**
 * The Content-Security-Policy an MCP App view runs under (ext-apps 2026-01-26, "Content
 * Security Policy"). Without a declaration the spec's restrictive default applies; with
 * one, each directive opens exactly the origins declared for it and never more. A
 * declared entry that is not a plain origin (a keyword, a bare `*`, a quote, a semicolon,
 * a path) is dropped, so a server cannot smuggle `'unsafe-eval'` or a second directive in
 * through a domain list.
 */

/** At most this many origins per directive: a longer list is a mistake or an attack. */
const MAX_DOMAINS = 32;

/** `https://host`, `https://*.host`, `wss://host:port`; `http:`/`ws:` only for loopback. */
const ORIGIN = /^(https|wss):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/i;
const LOOPBACK = /^(http|ws):\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/i;

/** Keep only well-formed origins, lower-cased and de-duplicated; report what was dropped. */
export function cleanOrigins(values: unknown): { kept: string[]; dropped: string[] } {
  const kept: string[] = [];
  const dropped: string[] = [];
  if (!Array.isArray(values)) return { kept, dropped };
  for (const v of values) {
    const text = typeof v === 'string' ? v.trim().replace(/\/$/, '') : '';
    if ((ORIGIN.test(text) || LOOPBACK.test(text)) && kept.length < MAX_DOMAINS) {
      const lower = text.toLowerCase();
      if (!kept.includes(lower)) kept.push(lower);
    } else dropped.push(String(v).slice(0, 200));
  }
  return { kept, dropped };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A view resource's `_meta.ui` (some SDKs write `meta`), read defensively. */
export interface ViewResourceMeta {
  csp: AppCspDomains;
  /** Entries that were not plain origins and were refused. */
  droppedDomains: string[];
  permissions: AppPermission[];
  prefersBorder?: boolean;
}

const PERMISSIONS: readonly AppPermission[] = ['camera', 'microphone', 'geolocation', 'clipboardWrite'];

/** Read the CSP domains, permissions and border preference off a view's resource content. */
export function readViewMeta(content: { _meta?: unknown; meta?: unknown }): ViewResourceMeta {
  const meta = isRecord(content._meta) ? content._meta : isRecord(content.meta) ? content.meta : {};
  const ui = isRecord(meta.ui) ? meta.ui : {};
  const csp = isRecord(ui.csp) ? ui.csp : {};
  const droppedDomains: string[] = [];
  const list = (key: string) => {
    const { kept, dropped } = cleanOrigins(csp[key]);
    droppedDomains.push(...dropped);
    return kept;
  };
  const perms = isRecord(ui.permissions) ? ui.permissions : {};
  return {
    csp: {
      connectDomains: list('connectDomains'),
      resourceDomains: list('resourceDomains'),
      frameDomains: list('frameDomains'),
      baseUriDomains: list('baseUriDomains'),
    },
    droppedDomains,
    // The spec's shape is `{ camera: {} , … }`; a truthy value means "asked for".
    permissions: PERMISSIONS.filter((p) => perms[p] !== undefined && perms[p] !== false && perms[p] !== null),
    ...(typeof ui.prefersBorder === 'boolean' ? { prefersBorder: ui.prefersBorder } : {}),
  };
}

/**
 * Build the policy string. `'self'` is the view's own sandbox origin (it serves only the view's
 * proxy page and its script); `blob:`/`data:` let a view show media it already holds without
 * any network.
 */
export function buildCsp(csp: AppCspDomains): string {
  const join = (...parts: string[]) => parts.filter(Boolean).join(' ');
  const res = csp.resourceDomains.join(' ');
  const directives = [
    "default-src 'none'",
    `script-src ${join("'self'", "'unsafe-inline'", res)}`,
    `style-src ${join("'self'", "'unsafe-inline'", res)}`,
    `img-src ${join("'self'", 'data:', 'blob:', res)}`,
    `font-src ${join("'self'", 'data:', res)}`,
    `media-src ${join("'self'", 'data:', 'blob:', res)}`,
    `connect-src ${csp.connectDomains.length ? csp.connectDomains.join(' ') : "'none'"}`,
    `frame-src ${csp.frameDomains.length ? csp.frameDomains.join(' ') : "'none'"}`,
    `base-uri ${csp.baseUriDomains.length ? csp.baseUriDomains.join(' ') : "'self'"}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "form-action 'none'",
  ];
  return directives.join('; ');
}

/** The iframe `allow` attribute for the permissions granted (never more than asked for). */
export function allowAttribute(granted: AppPermission[]): string {
  const feature: Record<AppPermission, string> = {
    camera: 'camera',
    microphone: 'microphone',
    geolocation: 'geolocation',
    clipboardWrite: 'clipboard-write',
  };
  return granted.map((p) => feature[p]).join('; ');
}
