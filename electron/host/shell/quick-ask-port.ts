import type { QuickAskStatus } from '../../../shared/domain/app-settings.js';

/**
 * The desktop app's global quick-ask shortcut, as the host drives it: Electron main implements
 * it with globalShortcut; browser mode and the CLI have none (the Settings page says so).
 */
export interface QuickAskShortcutPort {
  /**
   * Register the shortcut the setting names ("" = the default, "off" = none) in place of the
   * current one; an environment override wins. Never throws: a refusal is in the status.
   */
  apply(setting: string): QuickAskStatus;
}
