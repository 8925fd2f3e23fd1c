import type { HostApi } from '../../shared/ipc/contract.js';
import { HostCallError } from '../../shared/ipc/host-error.js';
import { BridgeClient } from './bridge-client.js';
import { hostCallError } from './errors.js';
import { staticLink, type HostLink, type LinkStatus } from './host-link.js';
import { forgetSessionToken, takeSessionToken } from './session-token.js';

/**
 * How this page reaches the host: the Electron preload's `window.host` when present,
 * otherwise browser mode's WebSocket bridge on the origin that served the page.
 */
export function createHostLink(): HostLink {
  if (window.host) return staticLink(preloadApi(window.host));
  const token = takeSessionToken();
  if (!token) return noTokenLink();
  return new BridgeClient(BridgeClient.urlFor(window.location, token), undefined, {
    // A token the host refuses (it restarted with a new one, or the address was mistyped) will
    // never work: forget it so a reload shows the help page rather than retrying it forever.
    onRejected: forgetSessionToken,
    pageAnswers: () =>
      fetch(window.location.pathname, { method: 'HEAD', cache: 'no-store' }).then(
        (r) => r.ok,
        () => false,
      ),
  });
}

/** Without a token the bridge would refuse us; say so instead of retrying forever. */
function noTokenLink(): HostLink {
  const api: HostApi = {
    invoke: () =>
      Promise.reject(
        new HostCallError({
          code: 'no_token',
          message: 'No session token — open the address that `mcp-desk browser` printed.',
        }),
      ),
    on: () => () => undefined,
  };
  // One object for the page's lifetime: useSyncExternalStore re-renders whenever the snapshot
  // differs by identity, so a fresh object per call looped React into error #185.
  const status: LinkStatus = { kind: 'no-token', reason: 'missing' };
  return { api, status: () => status, onStatus: () => () => undefined };
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
