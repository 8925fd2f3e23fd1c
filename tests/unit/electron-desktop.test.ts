/**
 * The desktop shell around the host: the quick-ask window, hide-to-tray, the tray's state,
 * icon and menu, and the folder picker (the global shortcut: quick-ask-shortcut.test.ts). Electron cannot run on this
 * machine (no binary), so `electron` is tests/helpers/fake-electron.ts, which only records
 * what our code hands it; what Electron itself does with that is covered by the `_electron`
 * tests where a binary exists (tests/e2e/electron-app.test.ts).
 */
import { beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { register } from 'node:module';
import path from 'node:path';
import type { PendingRequest } from '../../shared/domain/pending.js';
import type { ServerState, ServerSummary } from '../../shared/domain/server-state.js';

register('../helpers/fake-electron-hooks.mjs', import.meta.url);

const fake = await import('../helpers/fake-electron.js');
const { secureWebPreferences, rendererUrl, quickAskUrl, createQuickAskWindow, createMainWindow } =
  await import('../../electron/main/window-factory.js');
const { AppWindows } = await import('../../electron/main/app-windows.js');
const { DeskTray } = await import('../../electron/main/desk-tray.js');
const { DEFAULT_QUICK_ASK_SHORTCUT } = await import('../../electron/main/quick-ask-shortcut.js');
const { ElectronDesktopShell } = await import('../../electron/main/desktop-shell-adapter.js');
const { trayState, trayBitmap } = await import('../../electron/main/tray-state.js');
const { blockRemoteContent, isAllowedRendererRequest } =
  await import('../../electron/main/request-filter.js');

type FakeWindow = InstanceType<typeof fake.BrowserWindow>;
const paths = {
  rendererIndex: path.resolve('/app/out/renderer/index.html'),
  preload: path.resolve('/app/out/preload/index.cjs'),
};

beforeEach(() => {
  fake.BrowserWindow.all.length = 0;
  fake.trays.length = 0;
  fake.registeredShortcuts.clear();
  fake.takenShortcuts.clear();
  fake.dialogCalls.length = 0;
});

describe('the quick-ask window', () => {
  it('is hardened like the main window, small, on top, out of the task bar, and loads the quick-ask view', () => {
    const win = createQuickAskWindow(paths) as unknown as FakeWindow;
    assert.deepEqual(win.options.webPreferences, secureWebPreferences(paths.preload));
    assert.equal(win.options.alwaysOnTop, true);
    assert.equal(win.options.skipTaskbar, true);
    assert.equal(win.options.frame, false);
    assert.equal(win.options.show, false, 'hidden until the shortcut or the tray shows it');
    assert.equal(win.loadedUrl, quickAskUrl(paths));
    assert.equal(win.loadedUrl, `${rendererUrl(paths)}?view=quick-ask`);
  });

  it('is navigation-locked: a foreign page is refused, a reload of its own view is not', () => {
    const win = createQuickAskWindow(paths) as unknown as FakeWindow;
    assert.equal(win.webContents.fire('will-navigate', 'https://evil.example/'), true);
    assert.equal(win.webContents.fire('will-navigate', 'file:///etc/passwd?view=quick-ask'), true);
    assert.equal(win.webContents.fire('will-navigate', quickAskUrl(paths)), false);
    assert.deepEqual(win.webContents.openHandler?.({ url: 'https://example.com/' }), { action: 'deny' });
  });

  it('the main window gets the same webPreferences', () => {
    const win = createMainWindow(paths) as unknown as FakeWindow;
    assert.deepEqual(win.options.webPreferences, secureWebPreferences(paths.preload));
    assert.equal(win.loadedUrl, rendererUrl(paths));
  });
});

describe('AppWindows', () => {
  it('hides the main window on close while a tray exists, and really closes it when quitting', () => {
    let allClosed = 0;
    const windows = new AppWindows(
      paths,
      () => true,
      () => allClosed++,
    );
    const main = windows.showMain() as unknown as FakeWindow;
    assert.equal(main.isVisible(), true);
    main.close();
    assert.equal(main.isDestroyed(), false, 'close was turned into hide');
    assert.equal(main.isVisible(), false);
    assert.equal(windows.showMain(), main, 'the same window comes back');
    assert.equal(main.isVisible(), true);
    windows.beginQuit();
    main.close();
    assert.equal(main.isDestroyed(), true);
    assert.equal(allClosed, 1, 'the last window gone is reported (pending requests are then cancelled)');
  });

  it('without a tray, closing the main window closes it', () => {
    const windows = new AppWindows(
      paths,
      () => false,
      () => undefined,
    );
    const main = windows.showMain() as unknown as FakeWindow;
    main.close();
    assert.equal(main.isDestroyed(), true);
    assert.equal(windows.mainWindow(), undefined);
  });

  it('toggles the quick-ask window: shown centred and focused, then hidden; closing it only hides it', () => {
    const windows = new AppWindows(
      paths,
      () => true,
      () => undefined,
    );
    windows.toggleQuickAsk();
    const quick = fake.BrowserWindow.all.find((w) => w.loadedUrl?.endsWith('?view=quick-ask'));
    assert.ok(quick, 'a quick-ask window was created');
    assert.equal(quick.isVisible(), true);
    assert.equal(quick.isFocused(), true);
    assert.equal(quick.position[0], Math.round((1920 - 620) / 2));
    windows.toggleQuickAsk();
    assert.equal(quick.isVisible(), false);
    windows.toggleQuickAsk();
    quick.close();
    assert.equal(quick.isDestroyed(), false);
    assert.equal(quick.isVisible(), false);
    assert.equal(
      fake.BrowserWindow.all.filter((w) => w.loadedUrl?.endsWith('?view=quick-ask')).length,
      1,
      'reused, not recreated',
    );
  });
});

function server(id: string, state: ServerState): ServerSummary {
  return {
    id,
    config: { command: 'node' },
    state,
    transport: 'stdio',
    counts: { tools: 0, resources: 0, templates: 0, prompts: 0 },
  };
}
const connected: ServerState = {
  kind: 'connected',
  info: { name: 'x', version: '1', protocolEra: 'legacy', capabilities: {} },
  since: 0,
};
const approval = { kind: 'tool-approval', id: 'p1' } as unknown as PendingRequest;

describe('trayState', () => {
  it('counts connected servers among the enabled ones and says what waits', () => {
    const s = trayState(
      [
        server('a', connected),
        server('b', connected),
        server('c', { kind: 'failed', error: { code: 'error', message: 'boom' } }),
        server('d', { kind: 'disabled' }),
      ],
      [approval, approval],
    );
    assert.equal(s.serversLine, '2 of 3 servers connected');
    assert.equal(s.pendingLine, '2 requests waiting for you');
    assert.deepEqual(s.failed, ['c']);
    assert.equal(s.attention, true);
    assert.equal(s.tooltip, 'MCP Desk · 2 of 3 servers connected · 1 failed · 2 requests waiting for you');
  });

  it('is calm when all is well', () => {
    const s = trayState([server('a', connected)], []);
    assert.equal(s.attention, false);
    assert.equal(s.pendingLine, undefined);
    assert.equal(s.tooltip, 'MCP Desk · 1 of 1 server connected');
    assert.equal(trayState([], []).serversLine, 'No servers enabled');
  });
});

describe('trayBitmap', () => {
  const pixel = (buf: Buffer, size: number, x: number, y: number) => [
    ...buf.subarray((y * size + x) * 4, (y * size + x) * 4 + 4),
  ];
  it('is BGRA of the right size, transparent at the corners, blue inside; the attention variant has an orange dot', () => {
    for (const size of [16, 32]) {
      const calm = trayBitmap(size, false);
      const alert = trayBitmap(size, true);
      assert.equal(calm.length, size * size * 4);
      assert.equal(pixel(calm, size, 0, 0)[3], 0, 'corner transparent');
      assert.deepEqual(pixel(calm, size, size / 2, size / 2), [0xeb, 0x6f, 0x2f, 255]);
      const dot = pixel(alert, size, Math.floor(size * 0.75), Math.floor(size * 0.25));
      assert.deepEqual(dot, [0x3e, 0x88, 0xf0, 255]);
      assert.notDeepEqual(pixel(calm, size, Math.floor(size * 0.75), Math.floor(size * 0.25)), dot);
    }
  });
});

describe('DeskTray', () => {
  function makeTray(shortcut: string | null = DEFAULT_QUICK_ASK_SHORTCUT) {
    const calls: string[] = [];
    const dropped: string[][] = [];
    const tray = new DeskTray(
      {
        openMain: () => calls.push('open'),
        quickAsk: () => calls.push('quick'),
        pickFolders: () => calls.push('pick'),
        dropFolders: (p) => dropped.push(p),
        quit: () => calls.push('quit'),
      },
      shortcut ?? undefined,
    );
    const raw = fake.trays.at(-1);
    assert.ok(raw);
    return { tray, raw, calls, dropped };
  }
  const item = (raw: InstanceType<typeof fake.Tray>, label: string) =>
    raw.menu?.items.find((i) => i.label?.startsWith(label));

  it('shows the state in its tooltip, icon and menu, and its items do what they say', () => {
    const { tray, raw, calls } = makeTray();
    tray.update(trayState([server('a', connected)], [approval]));
    assert.equal(raw.tooltip, 'MCP Desk · 1 of 1 server connected · 1 request waiting for you');
    const icon = raw.image as InstanceType<typeof fake.FakeImage>;
    assert.deepEqual(icon.bitmap, trayBitmap(16, true), 'the attention icon');
    assert.equal(icon.representations[0]?.width, 32, 'a 2x representation for HiDPI');
    assert.equal(item(raw, '1 of 1 server')?.enabled, false);
    item(raw, '1 request waiting')?.click?.();
    item(raw, 'Quick ask')?.click?.();
    item(raw, 'Share folders')?.click?.();
    item(raw, 'Quit')?.click?.();
    assert.deepEqual(calls, ['open', 'quick', 'pick', 'quit']);
    assert.equal(item(raw, 'Quick ask')?.accelerator, DEFAULT_QUICK_ASK_SHORTCUT);

    tray.update(trayState([server('a', connected)], []));
    assert.deepEqual(
      (raw.image as InstanceType<typeof fake.FakeImage>).bitmap,
      trayBitmap(16, false),
      'calm again',
    );
    assert.equal(item(raw, '1 request'), undefined);
  });

  it('passes folders dropped on the icon on, opens the main window on click, and says when there is no shortcut', () => {
    const { raw, calls, dropped } = makeTray(null);
    raw.emit('drop-files', {}, ['/a', '/b']);
    raw.emit('click');
    assert.deepEqual(dropped, [['/a', '/b']]);
    assert.deepEqual(calls, ['open']);
    assert.equal(item(raw, 'Quick ask')?.label, 'Quick ask (no global shortcut)');
  });

  it('dispose destroys the icon', () => {
    const { tray, raw } = makeTray();
    tray.dispose();
    assert.equal(raw.destroyed, true);
  });
});

describe('ElectronDesktopShell', () => {
  it('picks folders with a directory-only, multi-select dialog attached to the visible main window', async () => {
    const windows = new AppWindows(
      paths,
      () => true,
      () => undefined,
    );
    const shell = new ElectronDesktopShell(windows);
    fake.dialogAnswer.canceled = false;
    fake.dialogAnswer.filePaths = ['/home/me/notes', '/home/me/code'];
    assert.deepEqual(await shell.pickFolders(), ['/home/me/notes', '/home/me/code']);
    assert.deepEqual(fake.dialogCalls[0]?.options.properties, [
      'openDirectory',
      'multiSelections',
      'createDirectory',
    ]);
    assert.equal(fake.dialogCalls[0]?.parent, false, 'no visible window yet: a free-standing dialog');
    windows.showMain();
    fake.dialogAnswer.canceled = true;
    assert.deepEqual(await shell.pickFolders(), [], 'cancelled means nothing');
    assert.equal(fake.dialogCalls[1]?.parent, true);
  });

  it('showConversation brings the hidden main window back', () => {
    const windows = new AppWindows(
      paths,
      () => true,
      () => undefined,
    );
    const main = windows.showMain() as unknown as FakeWindow;
    main.close();
    assert.equal(main.isVisible(), false);
    new ElectronDesktopShell(windows).showConversation();
    assert.equal(main.isVisible(), true);
    assert.equal(main.isFocused(), true);
  });
});

describe('blockRemoteContent', () => {
  it('lets the renderer load only local things: its files, data and blob URLs', () => {
    let filter: ((details: { url: string }, cb: (r: { cancel: boolean }) => void) => void) | undefined;
    blockRemoteContent(
      { webRequest: { onBeforeRequest: (f: typeof filter) => (filter = f) } } as never,
      () => undefined,
    );
    assert.ok(filter, 'a request filter is installed');
    const verdict = (url: string) => {
      let cancel: boolean | undefined;
      filter!({ url }, (r) => (cancel = r.cancel));
      return cancel;
    };
    for (const url of [
      'https://example.com/x.js',
      'http://127.0.0.1:8080/',
      'ws://127.0.0.1:1/',
      'ftp://x/',
      '//evil.example/',
    ])
      assert.equal(verdict(url), true, url);
    for (const url of [
      `${rendererUrl(paths)}`,
      'file:///app/out/renderer/assets/index.js',
      'data:image/png;base64,AAAA',
      'blob:file:///1234',
    ])
      assert.equal(verdict(url), false, url);
    assert.equal(isAllowedRendererRequest('javascript:alert(1)'), false);
  });
});
