import { app, BrowserWindow, globalShortcut, session, shell } from 'electron';
import { join, resolve } from 'node:path';
import { EVENT_CHANNEL } from '../../shared/ipc/electron-channels.js';
import { composeHost, type HostServices } from '../host/compose.js';
import { defaultConfigPath } from '../host/paths.js';
import { addFolders } from '../host/roots/add-folders.js';
import { checkExternalUrl } from '../host/util/external-url.js';
import { installAppMenu } from './app-menu.js';
import { AppWindows } from './app-windows.js';
import { BundleOpener, bundlePathsIn } from './bundle-opener.js';
import { DeskTray } from './desk-tray.js';
import { helpItems } from './diagnostics/help-menu.js';
import { startDesktopDiagnostics } from './diagnostics/desktop-diagnostics.js';
import { logsDirOf } from '../host/diagnostics/host-log.js';
import { installLaunchEntries, LaunchActions, launchActionsIn, launchRunner } from './launch-entries.js';
import { dispatchArgv } from './second-instance.js';
import { DeepLinkHook } from './deep-links.js';
import { ElectronDesktopShell } from './desktop-shell-adapter.js';
import { ElectronStoreSettingsBackend } from './electron-settings-backend.js';
import { installIpcGate } from './ipc-gate.js';
import { QuickAskShortcut } from './quick-ask-shortcut.js';
import {
  blockRemoteContent,
  mayGrantPermission,
  originOf,
  permissionRequestFacts,
} from './request-filter.js';
import { proxyScriptFrom } from '../host/apps/sandbox-page.js';
import { registerSandboxScheme, serveSandboxScheme } from './sandbox-scheme.js';
import { blockWebRtcIn, enableFocusPolicy, viewLookup, ViewIsolation } from './view-isolation.js';
import { trayState } from './tray-state.js';
import { DesktopUpdates } from './updates/desktop-updates.js';
import { lockNavigation, rendererUrl, type WindowPaths } from './window-factory.js';

/**
 * The Electron composition root: one host core, the main and quick-ask windows, the tray,
 * the global shortcut and one IPC gate. Everything that does real work lives in
 * electron/host and runs the same in plain Node.
 */
const paths: WindowPaths = {
  rendererIndex: join(__dirname, '..', 'renderer', 'index.html'),
  preload: join(__dirname, '..', 'preload', 'index.cjs'),
};

let services: HostServices | undefined;
let isolation: ViewIsolation | undefined;
let tray: DeskTray | undefined;
let quitStarted = false;
// Registered by the host's app settings once it starts; Settings changes it live.
const quickAsk = new QuickAskShortcut(() => windows.toggleQuickAsk());
const windows = new AppWindows(
  paths,
  () => tray !== undefined,
  // Nobody is left to answer: every request waiting on a person settles as cancelled.
  () => services?.broker.cancelWhere(() => true),
);

// Auto-update only for an installed app: a development build has no update feed (app-update.yml).
const updates = app.isPackaged ? new DesktopUpdates(() => services?.broker.list().length ?? 0) : undefined;

// .mcpb files opened from the file manager: previews once the main window is up (bundle-opener.ts).
const bundles = new BundleOpener();
for (const path of bundlePathsIn(process.argv)) bundles.open(path);
app.on('open-file', (event, path) => {
  if (!/\.mcpb$/i.test(path)) return;
  event.preventDefault();
  bundles.open(path);
});

// Every renderer is sandboxed, including any a future feature forgets to configure.
app.enableSandbox();
// MCP_DESK_DATA_DIR moves everything (our files and Chromium's profile) elsewhere: portable
// installs and tests. It must be set before `ready`, when Chromium opens its profile.
if (process.env.MCP_DESK_DATA_DIR) app.setPath('userData', process.env.MCP_DESK_DATA_DIR);
// Crash dumps and the error log in the data folder, local only (diagnostics/desktop-diagnostics.ts).
const log = startDesktopDiagnostics(app);
// New chat / Quick ask from the dock menu, a jump-list task or a flag; run once the host is up.
const launches = new LaunchActions();
// MCP App views' sandbox proxy gets an origin per view; schemes must be registered before ready.
registerSandboxScheme();
// Views are denied taking the keyboard focus before the person uses them; this makes Chromium enforce it.
enableFocusPolicy(app.commandLine);
// mcp-desk://install?… links open the install preview (the person confirms there).
const deepLinks = new DeepLinkHook();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  deepLinks.register(app, process.argv, process.defaultApp === true);
  for (const action of launchActionsIn(process.argv)) launches.run(action);
  app.on('second-instance', (_event, argv) => {
    // Quick ask alone brings up its own small window, not the main one.
    if (!launchActionsIn(argv).includes('quick-ask')) windows.showMain();
    dispatchArgv(argv, { deepLinks, bundles, actions: launches });
  });
  app.on('web-contents-created', (_e, contents) => {
    lockNavigation(contents, rendererUrl(paths));
    blockWebRtcIn(contents);
  });
  void app.whenReady().then(start);
}

async function start(): Promise<void> {
  // No web permission is granted to our pages; an MCP App view gets only what the person
  // granted its server, matched to the view by its own origin (see mayGrantPermission).
  const views = viewLookup((viewId) => services?.appViews.find(viewId));
  session.defaultSession.setPermissionRequestHandler((_wc, permission, callback, details) => {
    const { origin, media } = permissionRequestFacts(details);
    callback(mayGrantPermission(permission, originOf(origin), views, media));
  });
  session.defaultSession.setPermissionCheckHandler((_wc, permission, requestingOrigin, details) =>
    mayGrantPermission(
      permission,
      originOf(requestingOrigin),
      views,
      details.mediaType ? [details.mediaType] : [],
    ),
  );
  blockRemoteContent(session.defaultSession, views);
  // WebRTC and the views' network rules (view-isolation.ts), in place before any page loads.
  isolation = await ViewIsolation.start(session.defaultSession);

  const dataDir = app.getPath('userData');
  services = await composeHost({
    configPath: defaultConfigPath(dataDir),
    eraCachePath: join(dataDir, 'era-verdicts.json'),
    dataDir,
    mode: 'electron',
    useLoginShellPath: true,
    shell: new ElectronDesktopShell(windows),
    // settings.json through electron-store (conf in plain Node: the same file and format).
    settingsBackend: (dir) => new ElectronStoreSettingsBackend(dir),
    quickAsk,
    log,
    ...(updates ? { updateChecks: updates.controller } : {}),
    // Another Gemini endpoint (a proxy, or the tests' fake), as browser mode and the CLI allow.
    ...(process.env.MCP_DESK_GEMINI_BASE_URL
      ? { providerOverrides: { geminiBaseUrl: process.env.MCP_DESK_GEMINI_BASE_URL } }
      : {}),
    // URL elicitation: opened only after the person consented, and only checked http(s) links.
    openExternal: async (url) => {
      const safe = checkExternalUrl(url);
      if (!safe) throw new Error('only http(s) links without credentials are opened');
      await shell.openExternal(safe);
    },
  });
  const host = services;
  host.appViews.attachSandbox(
    serveSandboxScheme(
      {
        policyFor: (viewId) => host.appViews.policyFor(viewId),
        script: proxyScriptFrom(join(__dirname, '..', 'sandbox', 'sandbox-proxy.js')),
      },
      isolation.hooks(),
    ),
  );
  installIpcGate(host.router, () => rendererUrl(paths));
  host.events.onAny((event, payload) => {
    for (const win of BrowserWindow.getAllWindows()) {
      if (!win.isDestroyed()) win.webContents.send(EVENT_CHANNEL, event, payload);
    }
  });
  await host.host.init();
  windows.showMain();
  // Kept by the host until the window takes it, so a link that started the app is not lost.
  deepLinks.attach((url) => {
    windows.showMain();
    host.deepLinks.offer(url);
  });
  // The host keeps offers until the window asks (bundles.offers), so none is lost while it loads.
  bundles.attach((path) => {
    windows.showMain();
    void host.bundles?.offerFile(path);
  });
  startTray(host);
  launches.attach(
    launchRunner({
      router: host.router,
      showMain: () => windows.showMain(),
      toggleQuickAsk: () => windows.toggleQuickAsk(),
      onError: (text) => log.warn('main', text),
    }),
  );
  // Run from source, the relaunched Electron needs our entry script before the flag.
  const script = process.defaultApp && process.argv[1] ? [resolve(process.argv[1])] : [];
  installLaunchEntries(app, process.platform, (action) => launches.run(action), {
    execPath: process.execPath,
    prefix: script,
  });
  // "Restart to update" in the tray and the app menu, gone while a request waits for the person.
  // Help › Open logs folder / Copy diagnostics (no secret, no config value).
  const help = helpItems({
    logsDir: logsDirOf(dataDir),
    diagnostics: () => host.diagnostics.report(),
    onError: (text) => log.warn('main', text),
  });
  const menus = () => {
    const items = updates?.menuItems() ?? [];
    tray?.setUpdateItems(items);
    installAppMenu({ update: items, help });
  };
  host.events.on('pending.changed', menus);
  updates?.onChange(menus);
  menus();
  // The Playwright `_electron` tests drive what a person does with the tray and the global
  // shortcut (neither can be clicked from a test). Only with MCP_DESK_E2E=1, never otherwise.
  if (process.env.MCP_DESK_E2E === '1') {
    Object.assign(globalThis, {
      mcpDeskE2E: {
        toggleQuickAsk: () => windows.toggleQuickAsk(),
        trayTooltip: () => tray?.tooltip(),
        // How many connections the views' refusing proxy has turned away (WebRTC relays among them).
        viewProxyRefused: () => isolation?.refused() ?? 0,
      },
    });
  }
}

/** The tray and the quick-ask shortcut; a desktop without a status area just gets no tray. */
function startTray(host: HostServices): void {
  const share = (paths: string[]) =>
    void addFolders(host.roots, paths)
      .then((result) => {
        if (result.refused.length)
          console.warn(
            `tray drop: not shared: ${result.refused.map((r) => `${r.path} (${r.reason})`).join(', ')}`,
          );
      })
      .catch((error: unknown) => console.warn(`tray drop failed: ${(error as Error).message}`));
  try {
    tray = new DeskTray(
      {
        openMain: () => windows.showMain(),
        quickAsk: () => windows.toggleQuickAsk(),
        pickFolders: () => void host.router.handle('roots.pick', {}),
        dropFolders: share,
        quit: () => app.quit(),
      },
      quickAsk.current,
    );
    quickAsk.onChange((accelerator) => tray?.setShortcut(accelerator));
  } catch (error) {
    console.warn(`no tray icon (${(error as Error).message}); closing the window will quit`);
    return;
  }
  const refresh = () => tray?.update(trayState(host.host.list(), host.broker.list()));
  host.events.on('servers.changed', refresh);
  host.events.on('pending.changed', refresh);
  refresh();
}

// With a tray the app lives on after its windows close; without one it quits (not on macOS).
app.on('window-all-closed', () => {
  if (!tray && process.platform !== 'darwin') app.quit();
});

app.on('activate', () => {
  if (services) windows.showMain();
});

// Quit safely: stop every server (whole process trees) and flush writes before exiting.
app.on('before-quit', (event) => {
  windows.beginQuit();
  if (!services) return;
  // Held until dispose() is done (app.exit below skips this event): a second Ctrl+C or a tray
  // Quit during the cleanup would otherwise let Electron exit and orphan the servers.
  event.preventDefault();
  if (quitStarted) return;
  quitStarted = true;
  quickAsk.dispose();
  updates?.dispose();
  globalShortcut.unregisterAll();
  tray?.dispose();
  tray = undefined;
  const openViews = services.appViews.list().map((v) => v.viewId);
  void services
    .dispose()
    .then(() => isolation?.forget(openViews))
    .then(() => isolation?.dispose())
    .finally(() => app.exit(0));
});

// A quit from outside (logout, kill, Ctrl+C in a terminal) takes the same safe path.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());
