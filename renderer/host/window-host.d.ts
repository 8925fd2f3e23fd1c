import type { HostApi } from '../../shared/ipc/contract.js';

declare global {
  interface Window {
    /** Exposed by the Electron preload (contextBridge); absent in browser mode. */
    readonly host?: HostApi;
  }
}

export {};
