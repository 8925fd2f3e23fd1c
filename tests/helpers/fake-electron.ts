/**
 * A stand-in for the `electron` module, for unit tests of electron/main only. The real one
 * cannot exist on this machine: the Electron binary is never downloaded here
 * (ELECTRON_SKIP_BINARY_DOWNLOAD=1), so `require('electron')` throws. It records what the
 * shell code hands to Electron so tests can assert on it; it implements nothing else.
 */

type InvokeHandler = (event: unknown, ...args: unknown[]) => unknown;

/** Every URL passed to shell.openExternal, in order. */
export const openedExternally: string[] = [];
/** Every path passed to shell.openPath, in order. */
export const openedPaths: string[] = [];

export const shell = {
  openExternal: async (url: string): Promise<void> => {
    openedExternally.push(url);
  },
  /** Electron answers '' on success, else an error message. */
  openPath: async (path: string): Promise<string> => {
    openedPaths.push(path);
    return '';
  },
};

/** Handlers registered with ipcMain.handle, by channel. */
export const ipcHandlers = new Map<string, InvokeHandler>();

export const ipcMain = {
  handle: (channel: string, handler: InvokeHandler): void => {
    if (ipcHandlers.has(channel)) throw new Error(`second handler for ${channel}`);
    ipcHandlers.set(channel, handler);
  },
  removeHandler: (channel: string): void => {
    ipcHandlers.delete(channel);
  },
};

import { EventEmitter } from 'node:events';

/** A cancellable event as Electron passes it; `prevented` says whether a listener cancelled. */
export function cancellable(): { preventDefault(): void; prevented: boolean } {
  const e = { prevented: false, preventDefault: () => (e.prevented = true) };
  return e;
}

/** Just enough WebContents: events, the window-open handler, loading state, the WebRTC policy. */
export class FakeWebContents extends EventEmitter {
  openHandler: ((details: { url: string }) => { action: string }) | undefined;
  loading = false;
  webRtcPolicy: string | undefined;
  setWebRTCIPHandlingPolicy(policy: string): void {
    this.webRtcPolicy = policy;
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.openHandler = handler;
  }
  isLoading(): boolean {
    return this.loading;
  }
  /** Emit a cancellable event the way Electron does; true if a listener prevented it. */
  fire(name: string, url: string): boolean {
    const e = cancellable();
    this.emit(name, e, url);
    return e.prevented;
  }
}

/** Records what a window was created with and what was done to it; no pixels. */
export class BrowserWindow extends EventEmitter {
  static readonly all: BrowserWindow[] = [];
  static getAllWindows(): BrowserWindow[] {
    return BrowserWindow.all.filter((w) => !w.destroyed);
  }
  readonly webContents = new FakeWebContents();
  loadedUrl: string | undefined;
  visible = false;
  focused = false;
  destroyed = false;
  position: [number, number] = [0, 0];
  constructor(readonly options: Record<string, unknown>) {
    super();
    BrowserWindow.all.push(this);
  }
  async loadURL(url: string): Promise<void> {
    this.loadedUrl = url;
  }
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
    this.focused = false;
  }
  focus(): void {
    this.focused = true;
  }
  isVisible(): boolean {
    return this.visible;
  }
  isFocused(): boolean {
    return this.focused;
  }
  isMinimized(): boolean {
    return false;
  }
  restore(): void {}
  isDestroyed(): boolean {
    return this.destroyed;
  }
  getSize(): [number, number] {
    return [Number(this.options.width ?? 800), Number(this.options.height ?? 600)];
  }
  setPosition(x: number, y: number): void {
    this.position = [x, y];
  }
  /** What Electron does on close: a cancellable 'close', then 'closed' unless prevented. */
  close(): void {
    const e = cancellable();
    this.emit('close', e);
    if (e.prevented) return;
    this.destroyed = true;
    this.visible = false;
    this.emit('closed');
  }
}

export const screen = {
  getCursorScreenPoint: () => ({ x: 10, y: 10 }),
  getDisplayNearestPoint: () => ({ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }),
};

/** A stand-in image that remembers the bitmap it was made from. */
export class FakeImage {
  readonly representations: { scaleFactor: number; width: number; height: number; buffer: Buffer }[] = [];
  constructor(
    readonly bitmap: Buffer,
    readonly size: { width: number; height: number },
  ) {}
  addRepresentation(r: { scaleFactor: number; width: number; height: number; buffer: Buffer }): void {
    this.representations.push(r);
  }
}

export const nativeImage = {
  createFromBitmap: (buffer: Buffer, size: { width: number; height: number }) => new FakeImage(buffer, size),
};

/** A built menu is its template (labels, click handlers) and nothing more. */
export interface FakeMenuItem {
  label?: string;
  type?: string;
  role?: string;
  enabled?: boolean;
  accelerator?: string;
  toolTip?: string;
  submenu?: FakeMenuItem[];
  click?: () => void;
}
/** Every menu set as the application menu, newest last. */
export const applicationMenus: { items: FakeMenuItem[] }[] = [];
/** The menu last given to Menu.setApplicationMenu (null: none yet, or removed). */
export const applicationMenu: { current: { items: FakeMenuItem[] } | null } = { current: null };
export const Menu = {
  buildFromTemplate: (template: FakeMenuItem[]) => ({ items: template }),
  setApplicationMenu: (menu: { items: FakeMenuItem[] } | null): void => {
    if (menu) applicationMenus.push(menu);
    applicationMenu.current = menu;
  },
};

/** Every Tray made, newest last. */
export const trays: Tray[] = [];
export class Tray extends EventEmitter {
  image: unknown;
  tooltip = '';
  menu: { items: FakeMenuItem[] } | undefined;
  destroyed = false;
  constructor(image: unknown) {
    super();
    this.image = image;
    trays.push(this);
  }
  setImage(image: unknown): void {
    this.image = image;
  }
  setToolTip(text: string): void {
    this.tooltip = text;
  }
  setContextMenu(menu: { items: FakeMenuItem[] }): void {
    this.menu = menu;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

/** Accelerators another app "owns": register fails for these, as Electron's does. */
export const takenShortcuts = new Set<string>();
export const registeredShortcuts = new Map<string, () => void>();
export const globalShortcut = {
  register: (accelerator: string, callback: () => void): boolean => {
    if (!/^[A-Za-z]+(\+[A-Za-z0-9]+)*$/.test(accelerator))
      throw new Error(`conversion failure: ${accelerator}`);
    if (takenShortcuts.has(accelerator)) return false;
    registeredShortcuts.set(accelerator, callback);
    return true;
  },
  unregister: (accelerator: string): void => {
    registeredShortcuts.delete(accelerator);
  },
  unregisterAll: (): void => registeredShortcuts.clear(),
};

/** What the next showOpenDialog answers, and the options it was called with. */
export const dialogCalls: { parent: boolean; options: Record<string, unknown> }[] = [];
export const dialogAnswer = { canceled: false, filePaths: [] as string[] };
/** Every showMessageBox call's options, and the button index the next one answers. */
export const messageBoxCalls: Record<string, unknown>[] = [];
export const messageBoxAnswer = { response: 0 };
export const dialog = {
  showMessageBox: async (...args: unknown[]) => {
    messageBoxCalls.push((args.length > 1 ? args[1] : args[0]) as Record<string, unknown>);
    return { response: messageBoxAnswer.response, checkboxChecked: false };
  },
  showOpenDialog: async (...args: unknown[]) => {
    const options = (args.length > 1 ? args[1] : args[0]) as Record<string, unknown>;
    dialogCalls.push({ parent: args.length > 1, options });
    return { ...dialogAnswer };
  },
};

/** Schemes registered as privileged, and the handlers protocol.handle installed, by scheme. */
export const privilegedSchemes: { scheme: string; privileges?: Record<string, boolean> }[] = [];
export const protocolHandlers = new Map<string, (request: Request) => Response | Promise<Response>>();
export const protocol = {
  registerSchemesAsPrivileged: (
    schemes: { scheme: string; privileges?: Record<string, boolean> }[],
  ): void => {
    privilegedSchemes.push(...schemes);
  },
  handle: (scheme: string, handler: (request: Request) => Response | Promise<Response>): void => {
    if (protocolHandlers.has(scheme)) throw new Error(`second handler for ${scheme}`);
    protocolHandlers.set(scheme, handler);
  },
  unhandle: (scheme: string): void => {
    protocolHandlers.delete(scheme);
  },
};

/** Every crashReporter.start call's options, in order. */
export const crashReporterStarts: Record<string, unknown>[] = [];
export const crashReporter = {
  start: (options: Record<string, unknown>): void => {
    crashReporterStarts.push(options);
  },
};

/** Every text written to the clipboard, in order. */
export const clipboardWrites: string[] = [];
export const clipboard = {
  writeText: (text: string): void => {
    clipboardWrites.push(text);
  },
};

/**
 * `app.commandLine` as Chromium keeps it: one value per switch (appending a switch again
 * replaces its value), every call recorded.
 */
export class FakeCommandLine {
  readonly switches = new Map<string, string>();
  readonly appended: [string, string | undefined][] = [];
  constructor(initial: Record<string, string> = {}) {
    for (const [k, v] of Object.entries(initial)) this.switches.set(k, v);
  }
  getSwitchValue(name: string): string {
    return this.switches.get(name) ?? '';
  }
  hasSwitch(name: string): boolean {
    return this.switches.has(name);
  }
  appendSwitch(name: string, value?: string): void {
    this.appended.push([name, value]);
    this.switches.set(name, value ?? '');
  }
}

/** A session that records the proxy rules and storage clearing it is given. */
export class FakeSession {
  readonly proxies: { mode?: string; proxyRules?: string; proxyBypassRules?: string }[] = [];
  readonly cleared: { origin?: string }[] = [];
  /** Resolves setProxy only when released (to prove a caller waits for it); default: at once. */
  holdProxy: Promise<void> | null = null;
  async setProxy(config: { mode?: string; proxyRules?: string; proxyBypassRules?: string }): Promise<void> {
    if (this.holdProxy) await this.holdProxy;
    this.proxies.push(config);
  }
  async clearStorageData(options: { origin?: string } = {}): Promise<void> {
    this.cleared.push(options);
  }
}
