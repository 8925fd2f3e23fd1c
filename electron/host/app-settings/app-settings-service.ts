import type {
  AppSettings,
  AppSettingsState,
  QuickAskStatus,
  UpdateCheckStatus,
} from '../../../shared/domain/app-settings.js';
import type { HostEvents } from '../host-events.js';
import type { QuickAskShortcutPort } from '../shell/quick-ask-port.js';
import type { UpdateChecksPort } from '../shell/update-checks-port.js';
import type { SettingsStore } from '../stores/settings-store.js';

/** What AppSettingsService needs. */
export interface AppSettingsDeps {
  settings: SettingsStore;
  events: HostEvents;
  /** The desktop app's global shortcut; absent in browser mode and the CLI. */
  quickAsk?: QuickAskShortcutPort | undefined;
  /** The installed desktop app's update checks; absent in browser mode, the CLI and dev builds. */
  updateChecks?: UpdateChecksPort | undefined;
  paths: AppSettingsState['paths'];
  /** The Gemini endpoint forced by --base-url / MCP_DESK_GEMINI_BASE_URL. */
  geminiBaseUrlOverride?: string | undefined;
}

/**
 * Appearance, the quick-ask shortcut and update checks: stored in settings.json (so every window and reload
 * shares them), the shortcut applied live by the shell, and every change broadcast as
 * `appSettings.changed` so other windows restyle at once.
 */
export class AppSettingsService {
  private quickAsk: QuickAskStatus;
  private updates: UpdateCheckStatus;

  constructor(private readonly deps: AppSettingsDeps) {
    const app = deps.settings.getApp();
    this.quickAsk = deps.quickAsk ? deps.quickAsk.apply(app.quickAskShortcut) : { kind: 'not-applicable' };
    this.updates = deps.updateChecks
      ? deps.updateChecks.apply(app.autoUpdateCheck)
      : { kind: 'not-applicable' };
  }

  /** The settings, whether the shortcut took, and where files live. */
  state(): AppSettingsState {
    return {
      settings: this.deps.settings.getApp(),
      quickAsk: this.quickAsk,
      updates: this.updates,
      paths: this.deps.paths,
      geminiBaseUrlOverride: publicUrl(this.deps.geminiBaseUrlOverride),
    };
  }

  /** Store a change, re-register the shortcut if it changed, and tell every window. */
  async update(patch: Partial<AppSettings>): Promise<AppSettingsState> {
    const before = this.deps.settings.getApp();
    const next = await this.deps.settings.updateApp(patch);
    if (this.deps.quickAsk && next.quickAskShortcut !== before.quickAskShortcut)
      this.quickAsk = this.deps.quickAsk.apply(next.quickAskShortcut);
    if (this.deps.updateChecks && next.autoUpdateCheck !== before.autoUpdateCheck)
      this.updates = this.deps.updateChecks.apply(next.autoUpdateCheck);
    const state = this.state();
    this.deps.events.emit('appSettings.changed', state);
    return state;
  }
}

/** Origin and path only: a query string or user info could carry a key. */
function publicUrl(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return 'a custom endpoint';
  }
}
