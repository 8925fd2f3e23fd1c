import { BrowserWindow, screen } from 'electron';
import { createMainWindow, createQuickAskWindow, type WindowPaths } from './window-factory.js';

/**
 * The app's two windows. While the tray exists, closing either one hides it: the app keeps
 * running in the tray until the person quits. Without a tray (a desktop with no status
 * area), closing the main window really closes it, so the app can quit as usual.
 */
export class AppWindows {
  private main: BrowserWindow | undefined;
  private quickAsk: BrowserWindow | undefined;
  private quitting = false;

  constructor(
    private readonly paths: WindowPaths,
    /** Whether closing should hide to the tray (true once a tray icon exists). */
    private readonly keepInTray: () => boolean,
    /** Told when the last window is really gone (pending requests then have nobody to answer). */
    private readonly onAllClosed: () => void,
  ) {}

  /** From now on, close means close: the app is quitting. */
  beginQuit(): void {
    this.quitting = true;
  }

  /** Show (creating if needed) and focus the main window. */
  showMain(): BrowserWindow {
    const win = this.main && !this.main.isDestroyed() ? this.main : this.createMain();
    if (win.isMinimized()) win.restore();
    // A window still loading shows itself on ready-to-show (window-factory); showing it now would flash white.
    if (!win.webContents.isLoading()) win.show();
    win.focus();
    return win;
  }

  /** The main window if it exists (hidden or not). */
  mainWindow(): BrowserWindow | undefined {
    return this.main && !this.main.isDestroyed() ? this.main : undefined;
  }

  /** Show the quick-ask window centred on the display under the cursor, or hide it if shown. */
  toggleQuickAsk(): void {
    const win = this.quickAsk && !this.quickAsk.isDestroyed() ? this.quickAsk : this.createQuickAsk();
    if (win.isVisible() && win.isFocused()) {
      win.hide();
      return;
    }
    const display = screen.getDisplayNearestPoint(screen.getCursorScreenPoint());
    const [width] = win.getSize() as [number, number];
    const area = display.workArea;
    win.setPosition(Math.round(area.x + (area.width - width) / 2), Math.round(area.y + area.height / 4));
    win.show();
    win.focus();
  }

  private createMain(): BrowserWindow {
    const win = createMainWindow(this.paths);
    this.hideOnClose(win);
    win.on('closed', () => {
      this.main = undefined;
      this.checkAllClosed();
    });
    this.main = win;
    return win;
  }

  private createQuickAsk(): BrowserWindow {
    const win = createQuickAskWindow(this.paths);
    // The quick-ask window is a tool, never a reason to keep the app alive on its own.
    win.on('close', (event) => {
      if (!this.quitting) {
        event.preventDefault();
        win.hide();
      }
    });
    win.on('closed', () => {
      this.quickAsk = undefined;
      this.checkAllClosed();
    });
    this.quickAsk = win;
    return win;
  }

  private hideOnClose(win: BrowserWindow): void {
    win.on('close', (event) => {
      if (this.quitting || !this.keepInTray()) return;
      event.preventDefault();
      win.hide();
    });
  }

  private checkAllClosed(): void {
    if (BrowserWindow.getAllWindows().every((w) => w.isDestroyed())) this.onAllClosed();
  }
}
