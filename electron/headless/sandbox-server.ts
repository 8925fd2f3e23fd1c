import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  isViewId,
  sandboxPageUrl,
  sandboxRefusal,
  sandboxResponse,
  type SandboxResponse,
  type SandboxSite,
} from '../host/apps/sandbox-page.js';
import type { SandboxEndpoint } from '../host/apps/app-views.js';

/** A running sandbox listener: where it is, the app's frame-src for it, and how to stop it. */
export interface RunningSandbox extends SandboxEndpoint {
  port: number;
  /** The CSP source the app's page frames views from: any view host on this port, view pages only. */
  frameSource: string;
  close(): Promise<void>;
}

/**
 * The view id a request's Host names, when it is exactly `<viewId>.localhost:<port>`. Chromium
 * resolves every `*.localhost` name to loopback, so each view gets an origin of its own on this
 * one listener; any other Host (an IP, plain localhost, a rebinding name) names no view.
 */
export function viewIdOfHost(host: string | undefined, port: number): string | undefined {
  const m = /^([0-9a-f]{32})\.localhost:(\d{1,5})$/.exec(host ?? '');
  return m && Number(m[2]) === port && isViewId(m[1]) ? m[1] : undefined;
}

/**
 * Browser mode's sandbox for MCP App views: a second loopback listener whose every view has a
 * host, so an origin, of its own (`http://<viewId>.localhost:<port>`). It answers only the
 * hosts of open views, only GET and HEAD, and only what sandbox-page.ts serves; every answer,
 * refusals included, carries a CSP.
 */
export async function startSandboxServer(
  site: Omit<SandboxSite, 'appOrigin'> & { appOrigin: () => string },
  port = 0,
): Promise<RunningSandbox> {
  let bound = 0;
  const send = (res: ServerResponse, method: string | undefined, answer: SandboxResponse) => {
    res.writeHead(answer.status, answer.headers);
    res.end(method === 'HEAD' ? undefined : answer.body);
  };
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const refusal = sandboxRefusal(405, 'method not allowed');
      return send(res, req.method, { ...refusal, headers: { ...refusal.headers, Allow: 'GET, HEAD' } });
    }
    const viewId = viewIdOfHost(req.headers.host, bound);
    // An unknown or closed view's host is as foreign as any other (421, DNS rebinding).
    if (!viewId || site.policyFor(viewId) === undefined)
      return send(res, req.method, sandboxRefusal(421, 'misdirected request'));
    const pathname = new URL(req.url ?? '/', 'http://placeholder').pathname;
    void sandboxResponse({ ...site, appOrigin: site.appOrigin() }, viewId, pathname).then((answer) =>
      send(res, req.method, answer),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  bound = (server.address() as AddressInfo).port;
  const originFor = (viewId: string) => `http://${viewId}.localhost:${bound}`;
  return {
    port: bound,
    frameSource: `http://*.localhost:${bound}/view/`,
    originFor,
    pageUrl: (viewId) => sandboxPageUrl(originFor(viewId), viewId),
    // A browser page cannot take WebRTC away from a frame's realm for good (a nested
    // about:blank frame gets it back): browser mode discloses it instead.
    webRtcBlocked: false,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
