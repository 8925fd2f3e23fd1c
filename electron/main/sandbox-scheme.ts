import { protocol } from 'electron';
import type { SandboxEndpoint } from '../host/apps/app-views.js';
import { sandboxPageUrl, sandboxResponse, type SandboxSite } from '../host/apps/sandbox-page.js';

/** The scheme MCP App views' sandbox proxy is served on: its own origin, not the app's file://. */
export const SANDBOX_SCHEME = 'mcp-desk-sandbox';
/** The one host of that scheme; anything else is not found. */
const SANDBOX_HOST = 'sandbox';
/** The sandbox's origin as pages see it. */
export const SANDBOX_ORIGIN = `${SANDBOX_SCHEME}://${SANDBOX_HOST}`;
/** The app's own pages are files: the one origin the proxy talks to. */
export const FILE_APP_ORIGIN = 'file://';

/**
 * Must run before the app is ready. "standard" gives the scheme real origins (so the proxy is
 * same-origin with nothing of ours) and "secure" a secure context; it gets no bypassCSP, no
 * service workers and no fetch privileges, so its pages stay under the view's CSP.
 */
export function registerSandboxScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: SANDBOX_SCHEME, privileges: { standard: true, secure: true } },
  ]);
}

/**
 * Serve the sandbox proxy on the scheme (after ready): the proxy page of an open view under
 * that view's CSP, and its script; nothing else. The frame gets no preload and no Node
 * (nodeIntegrationInSubFrames is off and the preload runs only in our top frames).
 */
export function serveSandboxScheme(site: Omit<SandboxSite, 'appOrigin'>): SandboxEndpoint {
  protocol.handle(SANDBOX_SCHEME, async (request) => {
    const url = new URL(request.url);
    const answer =
      request.method === 'GET' && url.host === SANDBOX_HOST
        ? await sandboxResponse({ ...site, appOrigin: FILE_APP_ORIGIN }, url.pathname)
        : { status: 404, headers: { 'Content-Type': 'text/plain' }, body: 'not found' };
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  });
  return { origin: SANDBOX_ORIGIN, pageUrl: (viewId) => sandboxPageUrl(SANDBOX_ORIGIN, viewId) };
}
