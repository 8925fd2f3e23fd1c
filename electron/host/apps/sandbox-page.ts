import { readFile } from 'node:fs/promises';
import { SANDBOX_FORGET_SUFFIX } from '../../../shared/domain/mcp-apps.js';

/**
 * What the sandbox serves, the same in browser mode (a loopback port, one `<viewId>.localhost`
 * host per view) and in the desktop app (a dedicated scheme, one `<viewId>` host per view). Each
 * view has an origin of its own, so no view can reach another's DOM, realm, storage or CSP. On a
 * view's origin there is the proxy page of that view, under the view's CSP as a header, the
 * proxy's script, and a page that clears the origin's storage when the view closes. Every
 * response, errors included, carries a CSP that limits who may frame it; nothing else is served:
 * no bridge, no token, no app files.
 */

/** The path of the proxy's script on a view's origin. */
export const SANDBOX_SCRIPT_PATH = '/sandbox-proxy.js';
/** The proxy page of a view is `/view/<viewId>` on that view's own origin. */
export const SANDBOX_VIEW_PREFIX = '/view/';

/** One response of the sandbox. */
export interface SandboxResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What the sandbox needs to answer. */
export interface SandboxSite {
  /** The app's origin (the one page allowed to frame the proxy and talk to it). */
  appOrigin: string;
  /** The CSP of an open view; undefined for an unknown id. */
  policyFor(viewId: string): string | undefined;
  /** The built proxy script (out/sandbox/sandbox-proxy.js). */
  script(): Promise<string>;
}

/** View ids are 32 lower-case hex digits (AppViews issues them). */
export function isViewId(value: string | undefined): value is string {
  return value !== undefined && /^[0-9a-f]{32}$/.test(value);
}

const COMMON = {
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  // No page of another origin may embed these as a script, image or style.
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/**
 * The CSP of every sandbox response that is not a view's proxy page: nothing in it may run,
 * load or be submitted, nobody may frame it, and as a document it is an opaque sandbox. A view
 * that sends a frame to an error page finds a dead end there, not a realm without a CSP.
 */
export function strictSandboxCsp(frameAncestors = "'none'"): string {
  return `default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors ${frameAncestors}; sandbox`;
}

/** The `frame-ancestors` source for the app: its origin, or `file:` for the desktop app's pages. */
export function ancestorSource(appOrigin: string): string {
  return appOrigin.startsWith('file:') ? 'file:' : appOrigin;
}

/** The proxy page's CSP: the view's own, plus only the app may frame it. */
export function proxyPageCsp(viewCsp: string, appOrigin: string): string {
  return `${viewCsp}; frame-ancestors ${ancestorSource(appOrigin)}`;
}

/** The proxy page's URL on a view's own origin. */
export function sandboxPageUrl(viewOrigin: string, viewId: string): string {
  return `${viewOrigin}${SANDBOX_VIEW_PREFIX}${viewId}`;
}

/** Reads the built proxy script once and keeps it (it never changes while the app runs). */
export function proxyScriptFrom(path: string): () => Promise<string> {
  let cached: Promise<string> | undefined;
  return () => {
    cached ??= readFile(path, 'utf8').catch((error: unknown) => {
      cached = undefined;
      throw error;
    });
    return cached;
  };
}

/** Escape a value for a double-quoted HTML attribute. */
function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** The proxy page: the app's origin in an attribute, the script, and an empty body for the frame. */
export function proxyPage(appOrigin: string): string {
  return [
    '<!doctype html>',
    `<html lang="en" data-host-origin="${attr(appOrigin)}">`,
    '<head><meta charset="utf-8"><title>MCP App sandbox</title>',
    '<style>html,body{margin:0;padding:0;height:100%;overflow:hidden;background:transparent}',
    'iframe#view{display:block;width:100%;height:100%;border:0}</style>',
    `<script src="${SANDBOX_SCRIPT_PATH}"></script>`,
    '</head><body></body></html>',
  ].join('');
}

/**
 * Answer one GET on the origin of `viewId` (the id the request's host names; the listener or
 * the scheme handler has already refused any other host). Only an open view has anything here.
 */
export async function sandboxResponse(
  site: SandboxSite,
  viewId: string,
  pathname: string,
): Promise<SandboxResponse> {
  const csp = site.policyFor(viewId);
  if (csp === undefined) return sandboxRefusal(404, 'no such view');
  const page = `${SANDBOX_VIEW_PREFIX}${viewId}`;
  if (pathname === page)
    return {
      status: 200,
      headers: {
        ...COMMON,
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': proxyPageCsp(csp, site.appOrigin),
        // A view may not take the keyboard focus before the person interacts with it (where
        // the browser knows the feature; the app's iframe says the same in its `allow`).
        'Permissions-Policy': 'focus-without-user-activation=()',
      },
      body: proxyPage(site.appOrigin),
    };
  if (pathname === `${page}${SANDBOX_FORGET_SUFFIX}`)
    return {
      status: 200,
      headers: {
        ...COMMON,
        'Content-Type': 'text/plain; charset=utf-8',
        // Framed (hidden) by the app when the view closes; nothing in it runs.
        'Content-Security-Policy': strictSandboxCsp(ancestorSource(site.appOrigin)),
        'Clear-Site-Data': '"cache", "cookies", "storage"',
      },
      body: 'forgotten',
    };
  if (pathname === SANDBOX_SCRIPT_PATH) {
    try {
      return {
        status: 200,
        headers: {
          ...COMMON,
          'Content-Type': 'text/javascript; charset=utf-8',
          'Content-Security-Policy': strictSandboxCsp(),
        },
        body: await site.script(),
      };
    } catch {
      return sandboxRefusal(500, 'the sandbox proxy script is missing (run the build)');
    }
  }
  return sandboxRefusal(404, 'not found');
}

/** A refusal or error (404, 405, 421, 500) under the strict CSP. */
export function sandboxRefusal(status: number, body: string): SandboxResponse {
  return {
    status,
    headers: {
      ...COMMON,
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Security-Policy': strictSandboxCsp(),
    },
    body,
  };
}
