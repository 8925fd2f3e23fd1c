import type { MenuItemConstructorOptions } from 'electron';
import { ElectronUpdaterSource } from './electron-updater-source.js';
import { UpdateController, type UpdateTimers } from './update-controller.js';
import { confirmRestart, updateMenuItems } from './update-menu.js';
import type { UpdateSource } from './updater-port.js';

/**
 * Auto-update as the Electron composition root wires it: the controller (its UpdateChecksPort
 * goes to the host's settings), the menu items for the tray and the app menu, and the dialog
 * behind them. Created only for a packaged app: a development build has no update feed.
 */
export class DesktopUpdates {
  readonly controller: UpdateController;

  constructor(
    /** How many requests wait for the person (the pending broker's queue). */
    waitingRequests: () => number,
    source: UpdateSource = new ElectronUpdaterSource(),
    timers?: UpdateTimers,
  ) {
    this.controller = new UpdateController({ source, waitingRequests, ...(timers ? { timers } : {}) });
  }

  /** "Restart to update (vX)" while one is downloaded and no request waits; else nothing. */
  menuItems(): MenuItemConstructorOptions[] {
    return updateMenuItems(this.controller.restartOffer(), () => void this.confirm());
  }

  /** Be told when the menus should be rebuilt (also rebuild them on pending.changed). */
  onChange(listener: () => void): () => void {
    return this.controller.onChange(listener);
  }

  /** The release notes, then the restart if the person agrees and nobody waits. */
  async confirm(): Promise<void> {
    const offer = this.controller.restartOffer();
    if (offer) await confirmRestart(offer, () => this.controller.restart());
  }

  dispose(): void {
    this.controller.dispose();
  }
}
