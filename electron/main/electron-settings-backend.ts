import { ipcMain } from 'electron';
import Store from 'electron-store';
import { ConfSettingsBackend } from '../host/stores/conf-settings-backend.js';
import type { StoredSettings } from '../host/stores/settings-backend.js';

/** The channel electron-store listens on for renderer-side stores (which we never create). */
export const STORE_HANDSHAKE = 'electron-store-get-data';

/**
 * The settings file through electron-store, for the desktop app. electron-store is conf plus
 * Electron's paths, so this is the plain-Node backend with electron-store building the conf
 * instance from the very same options: same `<dataDir>/settings.json`, same format, same
 * handling of a bad file. It lives here because electron-store imports `electron`.
 */
export class ElectronStoreSettingsBackend extends ConfSettingsBackend {
  constructor(dataDir: string) {
    super(dataDir, {
      create: (options) => {
        const store = new Store<StoredSettings>(options);
        // electron-store answers any renderer's `electron-store-get-data` (our userData path)
        // without looking at the sender. Only main uses the store, and every IPC message must
        // pass our sender check, so that listener goes.
        ipcMain.removeAllListeners(STORE_HANDSHAKE);
        return store;
      },
    });
  }
}
