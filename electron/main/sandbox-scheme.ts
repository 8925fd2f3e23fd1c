import { protocol } from 'electron';
import type { SandboxEndpoint } from '../host/apps/app-views.js';
import {
  isViewId,
  sandboxPageUrl,
  sandboxRefusal,
  sandboxResponse,
  type SandboxResponse,
  type SandboxSite,
} from '../host/apps/sandbox-page.js';

/** The scheme MCP App views' sandbox proxy is served on: its own origins, not the app's file://. */
export const SANDBOX_SCHEME = 'mcp-desk-sandbox';
/** The app's own pages are files: the one origin a view's proxy talks to. */
export const FILE_APP_ORIGIN = 'file://';

/**
 * A view's origin on the scheme: its id is the host (`mcp-desk-sandbox://<viewId>`), so every
 * view has an origin, a storage partition and a permission key of its own.
 */
export function sandboxOriginFor(viewId: string): string {
  return `${SANDBOX_SCHEME}://${viewId}`;
}

/** The view id an origin of the scheme names, if it is one. */
export function viewIdOfOrigin(origin: string | undefined): string | undefined {
  const m = /^mcp-desk-sandbox:\/\/([0-9a-f]{32})$/.exec(origin ?? '');
  return m?.[1];
}

/**
 * Must run before the app is ready. "standard" gives the scheme real origins, one per host (so
 * a view is same-origin with nothing but itself) and "secure" a secure context; it gets no
 * bypassCSP, no service workers and no fetch privileges, so its pages stay under the view's CSP.
 */
export function registerSandboxScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: SANDBOX_SCHEME, privileges: { standard: true, secure: true } },
  ]);
}

/** What the desktop app adds to the sandbox beyond the pages: WebRTC, network rules, storage. */
export type SandboxHooks = Pick<SandboxEndpoint, 'webRtcBlocked' | 'opened' | 'closed'>;

/**
 * Serve the sandbox on the scheme (after ready): on the host of an open view, what
 * sandbox-page.ts serves for it; anything else is not found, under a strict CSP. The frames get
 * no preload and no Node (nodeIntegrationInSubFrames is off and the preload runs only in our top
 * frames).
 */
export function serveSandboxScheme(
  site: Omit<SandboxSite, 'appOrigin'>,
  hooks: SandboxHooks,
): SandboxEndpoint {
  protocol.handle(SANDBOX_SCHEME, async (request) => {
    const url = new URL(request.url);
    const viewId = url.host;
    const answer: SandboxResponse =
      request.method === 'GET' && isViewId(viewId) && site.policyFor(viewId) !== undefined
        ? await sandboxResponse({ ...site, appOrigin: FILE_APP_ORIGIN }, viewId, url.pathname)
        : sandboxRefusal(404, 'not found');
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  });
  return {
    originFor: sandboxOriginFor,
    pageUrl: (viewId) => sandboxPageUrl(sandboxOriginFor(viewId), viewId),
    ...hooks,
  };
}
