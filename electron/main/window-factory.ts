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
    if (url !== allowedUrl) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (url !== allowedUrl) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const safe = checkExternalUrl(url);
    if (safe) void shell.openExternal(safe);
    return { action: 'deny' };
  });
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
