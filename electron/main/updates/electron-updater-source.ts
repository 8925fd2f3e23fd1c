import * as electronUpdater from 'electron-updater';
import type { AppUpdater, UpdateInfo } from 'electron-updater';
import { releaseNotesText } from './release-notes.js';
import type { FoundUpdate, UpdateSource, UpdateSourceEvents } from './updater-port.js';

/** The first line of an updater error, capped: its messages can carry a whole HTTP response. */
export function shortUpdateError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split('\n', 1)[0]?.trim() || 'the update failed';
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/**
 * electron-updater's per-platform `autoUpdater`, created on first use. It is a CommonJS getter,
 * which Node's ESM loader does not list as a named export (tests load this file as ESM), while
 * the CommonJS main bundle sees it directly: look in both places.
 */
function defaultUpdater(): AppUpdater {
  const mod = electronUpdater as unknown as {
    autoUpdater?: AppUpdater;
    default?: { autoUpdater: AppUpdater };
  };
  return (mod.autoUpdater ?? mod.default?.autoUpdater) as AppUpdater;
}

function found(info: UpdateInfo): FoundUpdate {
  return { version: info.version, releaseNotes: releaseNotesText(info.releaseNotes) };
}

/**
 * electron-updater behind UpdateSource. The feed (GitHub Releases) comes from app-update.yml,
 * which electron-builder writes from the `publish` config at package time. Downloads are
 * started by the controller (autoDownload off) so checks turned off fetch nothing more; a
 * downloaded update also installs when the person quits (autoInstallOnAppQuit), never by
 * itself while the app runs.
 */
export class ElectronUpdaterSource implements UpdateSource {
  private readonly updater: AppUpdater;

  /** `updater` defaults to electron-updater's per-platform `autoUpdater` (tests pass their own). */
  constructor(updater?: AppUpdater) {
    this.updater = updater ?? defaultUpdater();
    this.updater.autoDownload = false;
    this.updater.autoInstallOnAppQuit = true;
  }

  async checkForUpdates(): Promise<void> {
    // Failures also arrive as the updater's 'error' event, which `on('error')` relays.
    await this.updater.checkForUpdates().catch(() => undefined);
  }

  async downloadUpdate(): Promise<void> {
    await this.updater.downloadUpdate().catch(() => undefined);
  }

  quitAndInstall(): void {
    this.updater.quitAndInstall();
  }

  on<E extends keyof UpdateSourceEvents>(event: E, listener: UpdateSourceEvents[E]): () => void {
    const u = this.updater;
    switch (event) {
      case 'available':
        return subscribe(u, 'update-available', (info: UpdateInfo) =>
          (listener as UpdateSourceEvents['available'])(found(info)),
        );
      case 'not-available':
        return subscribe(u, 'update-not-available', () =>
          (listener as UpdateSourceEvents['not-available'])(),
        );
      case 'progress':
        return subscribe(u, 'download-progress', (p: { percent: number }) =>
          (listener as UpdateSourceEvents['progress'])(p.percent),
        );
      case 'downloaded':
        return subscribe(u, 'update-downloaded', (info: UpdateInfo) =>
          (listener as UpdateSourceEvents['downloaded'])(found(info)),
        );
      case 'error':
        return subscribe(u, 'error', (error: Error) =>
          (listener as UpdateSourceEvents['error'])(shortUpdateError(error)),
        );
    }
    return () => undefined;
  }
}

/** Listen on the updater's emitter; the returned function removes exactly this listener. */
function subscribe<A extends unknown[]>(
  updater: AppUpdater,
  event: Parameters<AppUpdater['on']>[0],
  handler: (...args: A) => void,
): () => void {
  const h = handler as (...args: unknown[]) => void;
  updater.on(event, h);
  return () => void updater.off(event, h);
}
