import type { AppSettings, AppSettingsState, QuickAskStatus } from '../../../shared/domain/app-settings.js';
import type { HostEvents } from '../host-events.js';
import type { QuickAskShortcutPort } from '../shell/quick-ask-port.js';
import type { SettingsStore } from '../stores/settings-store.js';

/** What AppSettingsService needs. */
export interface AppSettingsDeps {
  settings: SettingsStore;
  events: HostEvents;
  /** The desktop app's global shortcut; absent in browser mode and the CLI. */
  quickAsk?: QuickAskShortcutPort | undefined;
  paths: AppSettingsState['paths'];
  /** The Gemini endpoint forced by --base-url / MCP_DESK_GEMINI_BASE_URL. */
  geminiBaseUrlOverride?: string | undefined;
}

/**
 * Appearance and the quick-ask shortcut: stored in settings.json (so every window and reload
 * shares them), the shortcut applied live by the shell, and every change broadcast as
 * `appSettings.changed` so other windows restyle at once.
 */
export class AppSettingsService {
  private quickAsk: QuickAskStatus;

  constructor(private readonly deps: AppSettingsDeps) {
    this.quickAsk = deps.quickAsk
      ? deps.quickAsk.apply(deps.settings.getApp().quickAskShortcut)
      : { kind: 'not-applicable' };
  }

  /** The settings, whether the shortcut took, and where files live. */
  state(): AppSettingsState {
    return {
      settings: this.deps.settings.getApp(),
      quickAsk: this.quickAsk,
      paths: this.deps.paths,
      geminiBaseUrlOverride: publicUrl(this.deps.geminiBaseUrlOverride),
    };
  }

  /** Store a change, re-register the shortcut if it changed, and tell every window. */
  async update(patch: Partial<AppSettings>): Promise<AppSettingsState> {
    const before = this.deps.settings.getApp().quickAskShortcut;
    const next = await this.deps.settings.updateApp(patch);
    if (this.deps.quickAsk && next.quickAskShortcut !== before)
      this.quickAsk = this.deps.quickAsk.apply(next.quickAskShortcut);
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
