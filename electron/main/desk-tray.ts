import { Menu, nativeImage, Tray, type MenuItemConstructorOptions, type NativeImage } from 'electron';
import { trayBitmap, type TrayState } from './tray-state.js';

/** What the tray's menu items and drops do; the composition root wires them. */
export interface TrayActions {
  openMain(): void;
  quickAsk(): void;
  pickFolders(): void;
  /** Folders dropped on the tray icon (macOS only: other platforms never emit drops). */
  dropFolders(paths: string[]): void;
  quit(): void;
}

/** Both icon variants, at 1x and 2x so HiDPI trays stay sharp. */
function trayIcon(attention: boolean): NativeImage {
  const image = nativeImage.createFromBitmap(trayBitmap(16, attention), {
    width: 16,
    height: 16,
    scaleFactor: 1,
  });
  image.addRepresentation({ scaleFactor: 2, width: 32, height: 32, buffer: trayBitmap(32, attention) });
  return image;
}

/** The tray icon: state in its tooltip, icon and menu; quick-ask, folders and quit in its menu. */
export class DeskTray {
  private readonly tray: Tray;
  private readonly icons = { calm: trayIcon(false), attention: trayIcon(true) };
  private state: TrayState | undefined;
  private updateItems: MenuItemConstructorOptions[] = [];

  constructor(
    private readonly actions: TrayActions,
    /** The quick-ask accelerator as registered, or undefined when it could not be. */
    private shortcut: string | undefined,
  ) {
    this.tray = new Tray(this.icons.calm);
    this.tray.setToolTip('MCP Desk');
    // Windows and most Linux trays open on click; macOS shows the menu itself.
    this.tray.on('click', () => actions.openMain());
    this.tray.on('drop-files', (_event, files: string[]) => actions.dropFolders(files));
    this.render();
  }

  update(state: TrayState): void {
    this.state = state;
    this.render();
  }

  /** The quick-ask accelerator changed in Settings: show the new one in the menu. */
  setShortcut(shortcut: string | undefined): void {
    this.shortcut = shortcut;
    this.render();
  }

  /** "Restart to update (vX)" while one is ready and no request waits (updates/update-menu.ts). */
  setUpdateItems(items: MenuItemConstructorOptions[]): void {
    this.updateItems = items;
    this.render();
  }

  /** The tooltip as shown now (the state a person sees on hover). */
  tooltip(): string {
    return this.state?.tooltip ?? 'MCP Desk';
  }

  dispose(): void {
    if (!this.tray.isDestroyed()) this.tray.destroy();
  }

  private render(): void {
    if (this.tray.isDestroyed()) return;
    const s = this.state;
    this.tray.setImage(s?.attention ? this.icons.attention : this.icons.calm);
    this.tray.setToolTip(s?.tooltip ?? 'MCP Desk');
    const status: MenuItemConstructorOptions[] = s
      ? [
          { label: s.serversLine, enabled: false },
          ...(s.failed.length
            ? [
                {
                  label: `Failed: ${s.failed.slice(0, 5).join(', ')}${s.failed.length > 5 ? '…' : ''}`,
                  enabled: false,
                },
              ]
            : []),
          ...(s.pendingLine ? [{ label: `${s.pendingLine}…`, click: () => this.actions.openMain() }] : []),
          { type: 'separator' },
        ]
      : [];
    const menu = Menu.buildFromTemplate([
      ...status,
      { label: 'Open MCP Desk', click: () => this.actions.openMain() },
      {
        label: this.shortcut ? 'Quick ask' : 'Quick ask (no global shortcut)',
        ...(this.shortcut ? { accelerator: this.shortcut, registerAccelerator: false } : {}),
        click: () => this.actions.quickAsk(),
      },
      { label: 'Share folders…', click: () => this.actions.pickFolders() },
      { type: 'separator' },
      ...(this.updateItems.length ? [...this.updateItems, { type: 'separator' as const }] : []),
      { label: 'Quit MCP Desk', click: () => this.actions.quit() },
    ]);
    this.tray.setContextMenu(menu);
  }
}
