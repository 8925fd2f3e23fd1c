import type { UpdateCheckStatus } from '../../../shared/domain/app-settings.js';

/**
 * The installed desktop app's update checks, as the host's settings drive them: Electron main
 * implements it over electron-updater; browser mode, the CLI and development builds have none
 * (the Settings page says updates apply to the installed app).
 */
export interface UpdateChecksPort {
  /** Start or stop the checks as the setting says; an environment override wins. Never throws. */
  apply(enabled: boolean): UpdateCheckStatus;
}
