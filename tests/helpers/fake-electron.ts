/**
 * A stand-in for the `electron` module, for unit tests of electron/main only. The real one
 * cannot exist on this machine: the Electron binary is never downloaded here
 * (ELECTRON_SKIP_BINARY_DOWNLOAD=1), so `require('electron')` throws. It records what the
 * shell code hands to Electron so tests can assert on it; it implements nothing else.
 */

type InvokeHandler = (event: unknown, ...args: unknown[]) => unknown;

/** Every URL passed to shell.openExternal, in order. */
export const openedExternally: string[] = [];

export const shell = {
  openExternal: async (url: string): Promise<void> => {
    openedExternally.push(url);
  },
};

/** Handlers registered with ipcMain.handle, by channel. */
export const ipcHandlers = new Map<string, InvokeHandler>();

export const ipcMain = {
  handle: (channel: string, handler: InvokeHandler): void => {
    if (ipcHandlers.has(channel)) throw new Error(`second handler for ${channel}`);
    ipcHandlers.set(channel, handler);
  },
  removeHandler: (channel: string): void => {
    ipcHandlers.delete(channel);
  },
};

/** Constructing a window is not under test; failing loudly beats pretending. */
export class BrowserWindow {
  constructor() {
    throw new Error('fake electron: BrowserWindow is not available in unit tests');
  }
}
