import { dialog, type OpenDialogOptions } from 'electron';
import type { DesktopShell } from '../host/shell/desktop-shell.js';
import type { AppWindows } from './app-windows.js';

const PICK_FOLDERS: OpenDialogOptions = {
  title: 'Share folders with MCP servers',
  buttonLabel: 'Share',
  properties: ['openDirectory', 'multiSelections', 'createDirectory'],
};

/** The host's DesktopShell over Electron's dialog and our windows. */
export class ElectronDesktopShell implements DesktopShell {
  constructor(private readonly windows: AppWindows) {}

  async pickFolders(): Promise<string[]> {
    // Attached to the main window when it is up, so the picker is modal to it.
    const parent = this.windows.mainWindow();
    const result = parent?.isVisible()
      ? await dialog.showOpenDialog(parent, PICK_FOLDERS)
      : await dialog.showOpenDialog(PICK_FOLDERS);
    return result.canceled ? [] : result.filePaths;
  }

  showConversation(): void {
    // The renderer switches to the conversation itself on the app.showConversation event.
    this.windows.showMain();
  }
}
