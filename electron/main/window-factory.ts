import { BrowserWindow, shell, type WebContents, type WebPreferences } from 'electron';
import { pathToFileURL } from 'node:url';
import { checkExternalUrl } from '../host/util/external-url.js';

/** Where the built renderer and preload live (out/renderer, out/preload). */
export interface WindowPaths {
  rendererIndex: string;
  preload: string;
}

/**
 * The webPreferences every window gets (Electron's security checklist): the renderer runs
 * sandboxed, isolated from the preload, with no Node; only our preload bridges to main.
 */
export function secureWebPreferences(preload: string): WebPreferences {
  return {
    preload,
    sandbox: true,
    contextIsolation: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    spellcheck: false,
    navigateOnDragDrop: false,
  };
}

/** The one URL our windows may show. */
export function rendererUrl(paths: WindowPaths): string {
  return pathToFileURL(paths.rendererIndex).toString();
}

/**
 * Block every navigation away from the renderer and every new window; http(s) links a
 * person clicks open in the system browser after a check.
 */
export function lockNavigation(contents: WebContents, allowedUrl: string): void {
  contents.on('will-navigate', (event, url) => {
    if (!samePage(url, allowedUrl)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!samePage(url, allowedUrl)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const safe = checkExternalUrl(url);
    if (safe) void shell.openExternal(safe);
    return { action: 'deny' };
  });
}

/** The quick-ask window's URL: the same page, told by its query which view to show. */
export function quickAskUrl(paths: WindowPaths): string {
  return `${rendererUrl(paths)}?view=quick-ask`;
}

/**
 * The quick-ask window: small, frameless, always on top, out of the task bar, hidden until
 * the shortcut or the tray shows it. Same preload, same webPreferences, same lock-down.
 */
export function createQuickAskWindow(paths: WindowPaths): BrowserWindow {
  const win = new BrowserWindow({
    width: 620,
    height: 460,
    minWidth: 420,
    minHeight: 240,
    title: 'MCP Desk — Quick ask',
    show: false,
    frame: false,
    alwaysOnTop: true,
    skipTaskbar: true,
    fullscreenable: false,
    minimizable: false,
    maximizable: false,
    webPreferences: secureWebPreferences(paths.preload),
  });
  // The query is part of what loads, not a navigation: lockNavigation compares without it.
  lockNavigation(win.webContents, rendererUrl(paths));
  void win.loadURL(quickAskUrl(paths));
  return win;
}

/** The renderer's own file with any query or hash (a reload of the quick-ask view); nothing else. */
function samePage(url: string, allowedUrl: string): boolean {
  return url.split(/[?#]/)[0] === allowedUrl;
}

/** Create the main window, locked down, loading the built renderer. */
export function createMainWindow(paths: WindowPaths): BrowserWindow {
  const win = new BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 720,
    minHeight: 480,
    title: 'MCP Desk',
    show: false,
    webPreferences: secureWebPreferences(paths.preload),
  });
  const url = rendererUrl(paths);
  lockNavigation(win.webContents, url);
  win.once('ready-to-show', () => win.show());
  void win.loadURL(url);
  return win;
}
