import type { AppSettingsState } from '../../domain/app-settings.js';
import { appSettingsPatchSchema } from '../../domain/app-settings.js';
import { empty, typed } from './channel-kit.js';

/** Settings of the app itself: appearance and the quick-ask shortcut (see shared/domain/app-settings.ts). */
export const appSettingsChannels = {
  'appSettings.get': { request: empty, response: typed<AppSettingsState>() },
  /** Change some app settings; the answer (and `appSettings.changed`) says whether the shortcut took. */
  'appSettings.update': { request: appSettingsPatchSchema, response: typed<AppSettingsState>() },
} as const;
