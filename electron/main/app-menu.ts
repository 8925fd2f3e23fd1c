import { Menu, type MenuItemConstructorOptions } from 'electron';

/** Items other modules add to the application menu (each list may be empty). */
export interface AppMenuItems {
  /** "Restart to update": in the app menu on macOS, at the top of Help elsewhere. */
  update: MenuItemConstructorOptions[];
  /** Help entries (logs, diagnostics). */
  help?: MenuItemConstructorOptions[];
}

/**
 * The application menu: Electron's standard roles (so copy/paste and window shortcuts keep
 * working) plus our own items. Rebuilt whenever an item appears or goes.
 */
export function appMenuTemplate(
  items: AppMenuItems,
  platform: NodeJS.Platform = process.platform,
): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const update = items.update.length ? [...items.update, { type: 'separator' as const }] : [];
  const extraHelp = items.help ?? [];
  const help: MenuItemConstructorOptions[] =
    mac || !items.update.length ? extraHelp : extraHelp.length ? [...update, ...extraHelp] : items.update;
  return [
    ...(mac
      ? [
          {
            label: 'MCP Desk',
            submenu: [
              { role: 'about' as const },
              { type: 'separator' as const },
              ...update,
              { role: 'services' as const },
              { type: 'separator' as const },
              { role: 'hide' as const },
              { role: 'hideOthers' as const },
              { role: 'unhide' as const },
              { type: 'separator' as const },
              { role: 'quit' as const },
            ],
          },
        ]
      : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
    ...(help.length ? [{ role: 'help' as const, submenu: help }] : []),
  ];
}

/** Install (or replace) the application menu. */
export function installAppMenu(items: AppMenuItems, platform: NodeJS.Platform = process.platform): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate(items, platform)));
}
