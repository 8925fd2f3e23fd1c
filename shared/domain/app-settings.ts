import { z } from 'zod';
import { acceleratorProblem } from './accelerator.js';
import { DEFAULT_REGISTRY_URL } from './registry.js';

/** The colour scheme: follow the OS, or force one. */
export type ThemeChoice = 'system' | 'light' | 'dark';
/** How much room controls take. */
export type Density = 'compact' | 'comfortable';

/** The smallest and largest base font size (px) the Settings page offers. */
export const FONT_SIZE_RANGE = { min: 12, max: 20 } as const;

/**
 * Settings of the app itself (not of chats or servers): appearance, and the desktop app's
 * global quick-ask shortcut. Kept in settings.json beside the chat settings, so every window
 * and every reload sees the same.
 */
export interface AppSettings {
  theme: ThemeChoice;
  /** The base font size in px. */
  fontSize: number;
  density: Density;
  /**
   * The quick-ask accelerator: "" uses the default, "off" registers none. The
   * MCP_DESK_QUICK_ASK_SHORTCUT variable, when set, wins over this.
   */
  quickAskShortcut: string;
  /** The MCP registry the Registry view browses and `registry=` install links read (its API base URL). */
  registryUrl: string;
  /**
   * Whether the installed desktop app looks for a new version (on start, then daily) and downloads
   * it in the background. MCP_DESK_UPDATES=off, when set, wins over this.
   */
  autoUpdateCheck: boolean;
}

/**
 * A registry's base URL: https, or http only to this machine (a local or test registry), no
 * credentials, query or fragment (they would be sent with every search).
 */
export const registryUrlSchema = z
  .string()
  .trim()
  .max(500)
  .refine((value) => registryUrlProblem(value) === undefined, {
    message: 'the registry URL must be https:// (http:// only for 127.0.0.1 or localhost), without a query',
  });

/** Why a registry URL is refused, or undefined when it is fine. */
export function registryUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'not a URL';
  }
  if (url.username || url.password || url.search || url.hash) return 'no user, query or fragment allowed';
  if (url.protocol === 'https:') return undefined;
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  return url.protocol === 'http:' && loopback ? undefined : 'https:// only (http:// for this machine)';
}

/** One schema for what settings.json keeps under `app` and what `appSettings.update` accepts. */
export const appSettingsSchema = z
  .object({
    theme: z.enum(['system', 'light', 'dark']),
    fontSize: z.number().int().min(FONT_SIZE_RANGE.min).max(FONT_SIZE_RANGE.max),
    density: z.enum(['compact', 'comfortable']),
    quickAskShortcut: z
      .string()
      .trim()
      .max(100)
      .superRefine((value, ctx) => {
        if (value === '' || value.toLowerCase() === 'off') return;
        const problem = acceleratorProblem(value);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
    registryUrl: registryUrlSchema,
    autoUpdateCheck: z.boolean(),
  })
  .strict() satisfies z.ZodType<AppSettings, unknown>;

/** A change to some app settings: a subset of the fields, nothing else. */
export const appSettingsPatchSchema = appSettingsSchema.partial().strict();

/** What a person has before changing anything. */
export const DEFAULT_APP_SETTINGS: Readonly<AppSettings> = Object.freeze({
  theme: 'system',
  fontSize: 14,
  density: 'comfortable',
  quickAskShortcut: '',
  registryUrl: DEFAULT_REGISTRY_URL,
  autoUpdateCheck: true,
});

/** Where the quick-ask accelerator in force came from. */
export type ShortcutSource = 'env' | 'setting' | 'default';

/** Whether the global quick-ask shortcut works, and if not, why. */
export type QuickAskStatus =
  /** Browser mode and the CLI have no global shortcuts. */
  | { kind: 'not-applicable' }
  | { kind: 'registered'; accelerator: string; source: ShortcutSource }
  | { kind: 'off'; source: ShortcutSource }
  /** Electron refused it: another app owns it, or it cannot be parsed. */
  | { kind: 'failed'; accelerator: string; source: ShortcutSource; reason: string };

/** Whether the app looks for updates, and if not, why. */
export type UpdateCheckStatus =
  /** Browser mode, the CLI and a development build (not installed): there is no updater. */
  | { kind: 'not-applicable' }
  | { kind: 'on' }
  /** Off by the setting, or by MCP_DESK_UPDATES=off (which wins over the setting). */
  | { kind: 'off'; source: 'env' | 'setting' };

/** What `appSettings.get` answers and `appSettings.changed` carries. */
export interface AppSettingsState {
  settings: AppSettings;
  quickAsk: QuickAskStatus;
  updates: UpdateCheckStatus;
  /** Where this host keeps its files. */
  paths: {
    /** The data folder (settings, conversations, audit); null when nothing is persisted. */
    dataDir: string | null;
    /** The servers' config file. */
    configPath: string;
    /** settings.json; null when settings live in memory only. */
    settingsPath: string | null;
  };
  /**
   * The Gemini endpoint given by --base-url or MCP_DESK_GEMINI_BASE_URL, which wins over the
   * one in chat settings (origin and path only); null when none was given.
   */
  geminiBaseUrlOverride: string | null;
}
