import type { HostApi } from '../../shared/ipc/contract.js';
import { HostCallError } from '../../shared/ipc/host-error.js';
import { BridgeClient } from './bridge-client.js';
import { hostCallError } from './errors.js';
import { staticLink, type HostLink } from './host-link.js';
import { takeSessionToken } from './session-token.js';

/**
 * How this page reaches the host: the Electron preload's `window.host` when present,
 * otherwise browser mode's WebSocket bridge on the origin that served the page.
 */
export function createHostLink(): HostLink {
  if (window.host) return staticLink(preloadApi(window.host));
  const token = takeSessionToken();
  if (!token) return noTokenLink();
  return new BridgeClient(BridgeClient.urlFor(window.location, token));
}

/** Without a token the bridge would refuse us; say so instead of retrying forever. */
function noTokenLink(): HostLink {
  const api: HostApi = {
    invoke: () =>
      Promise.reject(
        new HostCallError({
          code: 'no_token',
          message: 'no session token: open the URL that `mcp-desk browser` printed',
        }),
      ),
    on: () => () => undefined,
  };
  return { api, status: () => ({ kind: 'no-token' }), onStatus: () => () => undefined };
}

/**
 * The preload rejects with a plain HostError object (contextBridge strips custom fields
 * from Error instances); turn it back into the HostCallError the views expect.
 */
function preloadApi(raw: HostApi): HostApi {
  return {
    invoke: (channel, request) =>
      raw.invoke(channel, request).catch((error: unknown) => {
        throw hostCallError(error);
      }),
    on: (event, listener) => raw.on(event, listener),
    ...(raw.pathForFile ? { pathForFile: (file: unknown) => raw.pathForFile?.(file) ?? '' } : {}),
  };
}
