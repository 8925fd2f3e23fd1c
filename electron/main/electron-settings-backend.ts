import Store from 'electron-store';
import { ConfSettingsBackend } from '../host/stores/conf-settings-backend.js';
import type { StoredSettings } from '../host/stores/settings-backend.js';

/**
 * The settings file through electron-store, for the desktop app. electron-store is conf plus
 * Electron's paths, so this is the plain-Node backend with electron-store building the conf
 * instance from the very same options: same `<dataDir>/settings.json`, same format, same
 * handling of a bad file. It lives here because electron-store imports `electron`.
 */
export class ElectronStoreSettingsBackend extends ConfSettingsBackend {
  constructor(dataDir: string) {
    super(dataDir, { create: (options) => new Store<StoredSettings>(options) });
  }
}
