import { app, BrowserWindow, session, shell } from 'electron';
import { join } from 'node:path';
import { EVENT_CHANNEL } from '../../shared/ipc/electron-channels.js';
import { composeHost, type HostServices } from '../host/compose.js';
import { defaultConfigPath } from '../host/paths.js';
import { checkExternalUrl } from '../host/util/external-url.js';
import { installIpcGate } from './ipc-gate.js';
import { createMainWindow, lockNavigation, rendererUrl, type WindowPaths } from './window-factory.js';

/**
 * The Electron composition root: one host core, one locked-down window, one IPC gate.
 * Everything that does real work lives in electron/host and runs the same in plain Node.
 */
const paths: WindowPaths = {
  rendererIndex: join(__dirname, '..', 'renderer', 'index.html'),
  preload: join(__dirname, '..', 'preload', 'index.cjs'),
};

let services: HostServices | undefined;
let mainWindow: BrowserWindow | undefined;
let quitting = false;

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.focus();
    }
  });
  app.on('web-contents-created', (_e, contents) => lockNavigation(contents, rendererUrl(paths)));
  void app.whenReady().then(start);
}

async function start(): Promise<void> {
  // No web permission (camera, notifications, geolocation...) is ever granted to page content.
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);

  const dataDir = app.getPath('userData');
  services = await composeHost({
    configPath: defaultConfigPath(dataDir),
    eraCachePath: join(dataDir, 'era-verdicts.json'),
    dataDir,
    mode: 'electron',
    useLoginShellPath: true,
    // URL elicitation: opened only after the person consented, and only checked http(s) links.
    openExternal: async (url) => {
      const safe = checkExternalUrl(url);
      if (!safe) throw new Error('only http(s) links without credentials are opened');
      await shell.openExternal(safe);
    },
  });
  installIpcGate(services.router, () => rendererUrl(paths));
  services.events.onAny((event, payload) => {
    for (const win of BrowserWindow.getAllWindows()) {
      if (!win.isDestroyed()) win.webContents.send(EVENT_CHANNEL, event, payload);
    }
  });
  await services.host.init();
  mainWindow = createMainWindow(paths);
  mainWindow.on('closed', () => {
    mainWindow = undefined;
    // Nobody is left to answer: every request waiting on a person settles as cancelled.
    if (BrowserWindow.getAllWindows().length === 0) services?.broker.cancelWhere(() => true);
  });
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

app.on('activate', () => {
  if (!mainWindow && services) mainWindow = createMainWindow(paths);
});

// Quit safely: stop every server (whole process trees) and flush writes before exiting.
app.on('before-quit', (event) => {
  if (quitting || !services) return;
  event.preventDefault();
  quitting = true;
  void services.dispose().finally(() => app.exit(0));
});
