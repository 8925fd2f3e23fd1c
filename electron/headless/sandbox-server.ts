import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sandboxPageUrl, sandboxResponse, type SandboxSite } from '../host/apps/sandbox-page.js';
import type { SandboxEndpoint } from '../host/apps/app-views.js';
import { refuseLoopbackRequest } from './loopback-guard.js';

/** A running sandbox origin: where it is, and how to stop it. */
export interface RunningSandbox extends SandboxEndpoint {
  port: number;
  close(): Promise<void>;
}

/**
 * Browser mode's sandbox origin for MCP App views: a second loopback listener, so the views'
 * proxy runs on another origin (another port) than the app's UI. It serves only the proxy
 * page of open views and the proxy's script: no bridge, no token, no other file.
 */
export async function startSandboxServer(
  site: Omit<SandboxSite, 'appOrigin'> & { appOrigin: () => string },
  port = 0,
): Promise<RunningSandbox> {
  let bound = 0;
  const server: Server = createServer((req, res) => {
    if (refuseLoopbackRequest(req, res, bound)) return;
    const pathname = new URL(req.url ?? '/', 'http://placeholder').pathname;
    void sandboxResponse({ ...site, appOrigin: site.appOrigin() }, pathname).then((answer) => {
      res.writeHead(answer.status, answer.headers);
      res.end(req.method === 'HEAD' ? undefined : answer.body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  bound = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${bound}`;
  return {
    port: bound,
    origin,
    pageUrl: (viewId) => sandboxPageUrl(origin, viewId),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
