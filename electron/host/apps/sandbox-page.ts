import { readFile } from 'node:fs/promises';

/**
 * What the sandbox origin serves, the same in browser mode (a second loopback port) and in
 * the desktop app (a dedicated scheme): the proxy page of one open view, under that view's
 * CSP as a header, and the proxy's script. Nothing else: no bridge, no token, no app files.
 */

/** The path of the proxy's script on the sandbox origin. */
export const SANDBOX_SCRIPT_PATH = '/sandbox-proxy.js';
/** The proxy page of a view is `/view/<viewId>`. */
export const SANDBOX_VIEW_PREFIX = '/view/';

/** One response of the sandbox origin. */
export interface SandboxResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What the sandbox origin needs to answer. */
export interface SandboxSite {
  /** The app's origin (the one page allowed to frame the proxy and talk to it). */
  appOrigin: string;
  /** The CSP of an open view; undefined for an unknown id. */
  policyFor(viewId: string): string | undefined;
  /** The built proxy script (out/sandbox/sandbox-proxy.js). */
  script(): Promise<string>;
}

const COMMON = {
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
};

/** The page's URL of a view on a sandbox origin. */
export function sandboxPageUrl(origin: string, viewId: string): string {
  return `${origin}${SANDBOX_VIEW_PREFIX}${viewId}`;
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

/** Answer one GET on the sandbox origin. */
export async function sandboxResponse(site: SandboxSite, pathname: string): Promise<SandboxResponse> {
  if (pathname === SANDBOX_SCRIPT_PATH) {
    try {
      return {
        status: 200,
        headers: { ...COMMON, 'Content-Type': 'text/javascript; charset=utf-8' },
        body: await site.script(),
      };
    } catch {
      return text(500, 'the sandbox proxy script is missing (run the build)');
    }
  }
  if (pathname.startsWith(SANDBOX_VIEW_PREFIX)) {
    const viewId = pathname.slice(SANDBOX_VIEW_PREFIX.length);
    const csp = /^[0-9a-f]{32}$/.test(viewId) ? site.policyFor(viewId) : undefined;
    if (csp === undefined) return text(404, 'no such view');
    return {
      status: 200,
      headers: {
        ...COMMON,
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': csp,
      },
      body: proxyPage(site.appOrigin),
    };
  }
  return text(404, 'not found');
}

function text(status: number, body: string): SandboxResponse {
  return { status, headers: { ...COMMON, 'Content-Type': 'text/plain; charset=utf-8' }, body };
}
