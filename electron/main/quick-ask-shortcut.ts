import { globalShortcut } from 'electron';
import { acceleratorProblem } from '../../shared/domain/accelerator.js';
import type { QuickAskStatus, ShortcutSource } from '../../shared/domain/app-settings.js';
import type { QuickAskShortcutPort } from '../host/shell/quick-ask-port.js';

/** The default global shortcut for the quick-ask window. */
export const DEFAULT_QUICK_ASK_SHORTCUT = 'CommandOrControl+Shift+Space';

/** The part of Electron's globalShortcut this needs (tests pass the fake's). */
type GlobalShortcut = Pick<typeof globalShortcut, 'register' | 'unregister'>;

/**
 * The quick-ask global shortcut, applied live from Settings. MCP_DESK_QUICK_ASK_SHORTCUT, when
 * set, wins over the setting ("off" registers none). Another app may own an accelerator
 * already (Electron then just answers false): the status says so, the Settings page shows it,
 * and the tray's menu item still works.
 */
export class QuickAskShortcut implements QuickAskShortcutPort {
  private registered: string | undefined;
  private readonly listeners = new Set<(accelerator: string | undefined) => void>();

  constructor(
    private readonly onPress: () => void,
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly shortcuts: GlobalShortcut = globalShortcut,
  ) {}

  /** The accelerator registered now, or undefined (none, or it could not be registered). */
  get current(): string | undefined {
    return this.registered;
  }

  /** Be told whenever the registered accelerator changes (the tray's menu shows it). */
  onChange(listener: (accelerator: string | undefined) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  apply(setting: string): QuickAskStatus {
    const fromEnv = this.env.MCP_DESK_QUICK_ASK_SHORTCUT?.trim();
    const source: ShortcutSource = fromEnv ? 'env' : setting.trim() ? 'setting' : 'default';
    const wanted = fromEnv || setting.trim() || DEFAULT_QUICK_ASK_SHORTCUT;
    const status = this.register(wanted, source);
    for (const l of [...this.listeners]) l(this.registered);
    return status;
  }

  /** Give the shortcut back to the system (on quit). */
  dispose(): void {
    this.release();
  }

  private register(wanted: string, source: ShortcutSource): QuickAskStatus {
    if (wanted === this.registered) return { kind: 'registered', accelerator: wanted, source };
    this.release();
    if (wanted.toLowerCase() === 'off') return { kind: 'off', source };
    const problem = acceleratorProblem(wanted);
    if (problem) return this.failed(wanted, source, `it is not a valid shortcut: ${problem}`);
    try {
      if (this.shortcuts.register(wanted, this.onPress)) {
        this.registered = wanted;
        return { kind: 'registered', accelerator: wanted, source };
      }
    } catch (error) {
      // An accelerator Electron cannot parse throws; the app must still start.
      return this.failed(wanted, source, `Electron could not read it (${(error as Error).message})`);
    }
    return this.failed(
      wanted,
      source,
      'another application already uses it; pick another, or use the tray menu',
    );
  }

  private failed(accelerator: string, source: ShortcutSource, reason: string): QuickAskStatus {
    console.warn(`quick ask: ${accelerator}: ${reason}`);
    return { kind: 'failed', accelerator, source, reason };
  }

  private release(): void {
    if (this.registered) this.shortcuts.unregister(this.registered);
    this.registered = undefined;
  }
}
