/**
 * The desktop app's crash and error reports, Help menu, dock menu / jump list and
 * second-instance handoff (issue 16 items 3-4), against the recording fake of `electron`
 * (tests/helpers/fake-electron.ts): it records what our code hands Electron, nothing more.
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { register } from 'node:module';
import { join } from 'node:path';
import { after, beforeEach, describe, it } from 'node:test';
import { CleanupStack } from '../helpers/cleanup-stack.js';
import { tempDir } from '../helpers/temp-dir.js';
import { waitFor } from '../helpers/wait.js';

register('../helpers/fake-electron-hooks.mjs', import.meta.url);

const fake = await import('../helpers/fake-electron.js');
const { startDesktopDiagnostics } = await import('../../electron/main/diagnostics/desktop-diagnostics.js');
const { installAppMenu } = await import('../../electron/main/app-menu.js');
const { helpItems } = await import('../../electron/main/diagnostics/help-menu.js');
const { installLaunchEntries, LaunchActions, launchRunner } =
  await import('../../electron/main/launch-entries.js');
const { dispatchArgv } = await import('../../electron/main/second-instance.js');
const { DeepLinkHook } = await import('../../electron/main/deep-links.js');
const { BundleOpener } = await import('../../electron/main/bundle-opener.js');

type MenuItem = (typeof fake.applicationMenus)[number]['items'][number];
const stack = new CleanupStack();
after(() => stack.run());

/** Electron's `app`, as far as the diagnostics use it; records setPath in call order. */
class FakeApp extends EventEmitter {
  calls: string[] = [];
  constructor(readonly userData: string) {
    super();
  }
  getPath(): string {
    return this.userData;
  }
  getVersion(): string {
    return '9.8.7';
  }
  setPath(name: string, path: string): void {
    this.calls.push(`setPath ${name} ${path}`);
  }
}

beforeEach(() => {
  fake.crashReporterStarts.length = 0;
  fake.applicationMenus.length = 0;
  fake.clipboardWrites.length = 0;
  fake.openedPaths.length = 0;
});

describe('crash and error reports', () => {
  it('starts the crash reporter with uploads off, dumps in <dataDir>/crashes set before start', async () => {
    const dir = await tempDir(stack);
    const app = new FakeApp(dir);
    const proc = new EventEmitter();
    startDesktopDiagnostics(app, proc as unknown as NodeJS.Process);
    assert.deepEqual(app.calls, [`setPath crashDumps ${join(dir, 'crashes')}`]);
    assert.equal(fake.crashReporterStarts.length, 1);
    const options = fake.crashReporterStarts[0];
    assert.equal(options?.uploadToServer, false);
    assert.equal(options?.submitURL, undefined, 'no server to send anything to');
  });

  it('logs main-process errors and gone processes with the version and time', async () => {
    const dir = await tempDir(stack);
    const app = new FakeApp(dir);
    const proc = new EventEmitter();
    startDesktopDiagnostics(app, proc as unknown as NodeJS.Process);
    proc.emit('uncaughtExceptionMonitor', new Error('boom in main'), 'uncaughtException');
    proc.emit('unhandledRejection', new Error('nobody caught this'));
    app.emit(
      'render-process-gone',
      {},
      { getURL: () => 'file:///app/index.html?view=quick-ask' },
      {
        reason: 'crashed',
        exitCode: 139,
      },
    );
    app.emit('child-process-gone', {}, { type: 'GPU', reason: 'oom', exitCode: 1 });
    const text = readFileSync(join(dir, 'logs', 'main.log'), 'utf8');
    const entries = text.split('\n').filter((l) => /^\d{4}-/.test(l));
    assert.equal(entries.length, 4, text);
    for (const e of entries) assert.match(e, /^\d{4}-\d\d-\d\dT[\d:.]+Z (ERROR|WARN|INFO) v9\.8\.7 /);
    assert.match(text, /ERROR v9\.8\.7 main: uncaught exception: Error: boom in main\n +at /);
    assert.match(text, /main: unhandled rejection: Error: nobody caught this/);
    assert.match(text, /process: renderer gone \(crashed, exit code 139\) showing .*\(quick-ask\)/);
    assert.match(text, /process: GPU process "GPU" gone \(oom, exit code 1\)/);
  });
});

describe('the Help menu', () => {
  const deps = (logsDir: string) => ({
    logsDir,
    diagnostics: () => 'MCP Desk 9.8.7 diagnostics',
    onError: (t: string) => assert.fail(t),
  });

  it('has Open logs folder (shell.openPath on the logs folder) and Copy diagnostics (clipboard)', async () => {
    const dir = await tempDir(stack);
    const logsDir = join(dir, 'logs');
    installAppMenu({ update: [], help: helpItems(deps(logsDir)) }, 'linux');
    const menu = fake.applicationMenus.at(-1);
    assert.ok(menu);
    const help = menu.items.find((i) => i.role === 'help');
    assert.deepEqual(
      help?.submenu?.map((i) => i.label),
      ['Open logs folder', 'Copy diagnostics'],
    );
    const item = (label: string): MenuItem =>
      help?.submenu?.find((i) => i.label === label) ?? assert.fail(label);
    item('Open logs folder').click?.();
    await waitFor('the logs folder to be opened', () => (fake.openedPaths.length ? true : undefined));
    assert.deepEqual(fake.openedPaths, [logsDir]);
    assert.ok(existsSync(logsDir), 'a fresh install still gets a folder to open');
    item('Copy diagnostics').click?.();
    assert.deepEqual(fake.clipboardWrites, ['MCP Desk 9.8.7 diagnostics']);
    assert.equal(menu.items[0]?.role, 'fileMenu', 'no app menu outside macOS');
  });

  it('on macOS the app menu comes first', async () => {
    installAppMenu({ update: [], help: helpItems(deps(await tempDir(stack))) }, 'darwin');
    const menus = fake.applicationMenus.at(-1)?.items.map((i) => i.role ?? i.label);
    assert.deepEqual(menus, ['MCP Desk', 'fileMenu', 'editMenu', 'viewMenu', 'windowMenu', 'help']);
  });
});

describe('dock menu and jump list', () => {
  class EntriesApp {
    dockMenus: { items: MenuItem[] }[] = [];
    tasks: Electron.Task[][] = [];
    readonly dock = { setMenu: (menu: unknown) => void this.dockMenus.push(menu as { items: MenuItem[] }) };
    setUserTasks(tasks: Electron.Task[]): boolean {
      this.tasks.push(tasks);
      return true;
    }
  }
  const program = { execPath: 'C:\\Program Files\\MCP Desk\\MCP Desk.exe', prefix: [] };

  it('macOS: the dock menu has New chat and Quick ask, which run in this process', () => {
    const app = new EntriesApp();
    const ran: string[] = [];
    installLaunchEntries(app, 'darwin', (a) => ran.push(a), program);
    assert.equal(app.tasks.length, 0);
    const items = app.dockMenus[0]?.items ?? [];
    assert.deepEqual(
      items.map((i) => i.label),
      ['New chat', 'Quick ask'],
    );
    for (const i of items) i.click?.();
    assert.deepEqual(ran, ['new-chat', 'quick-ask']);
  });

  it('Windows: jump-list tasks relaunch the exe with --new-chat / --quick-ask', () => {
    const app = new EntriesApp();
    installLaunchEntries(app, 'win32', () => assert.fail('tasks run in a new process'), program);
    assert.equal(app.dockMenus.length, 0);
    const tasks = app.tasks[0] ?? [];
    assert.deepEqual(
      tasks.map((t) => [t.title, t.program, t.arguments]),
      [
        ['New chat', program.execPath, '--new-chat'],
        ['Quick ask', program.execPath, '--quick-ask'],
      ],
    );
    const fromSource = new EntriesApp();
    installLaunchEntries(fromSource, 'win32', () => undefined, {
      ...program,
      prefix: ['C:\\my app\\main.cjs'],
    });
    assert.equal(fromSource.tasks[0]?.[0]?.arguments, '"C:\\my app\\main.cjs" --new-chat');
  });

  it('Linux: neither', () => {
    const app = new EntriesApp();
    installLaunchEntries(app, 'linux', () => undefined, program);
    assert.equal(app.dockMenus.length + app.tasks.length, 0);
  });
});

describe('second-instance handoff', () => {
  it('dispatches a deep link, .mcpb paths and the launch flags to the first instance, queued until it is ready', () => {
    const deepLinks = new DeepLinkHook();
    const bundles = new BundleOpener();
    const actions = new LaunchActions();
    const link = 'mcp-desk://install?registry=io.github.upstash/context7';
    dispatchArgv(
      ['/opt/MCP Desk/mcp-desk', '--quick-ask', '--no-sandbox', link, '/home/a/b c.mcpb', '--new-chat'],
      {
        deepLinks,
        bundles,
        actions,
      },
    );
    dispatchArgv(['/opt/MCP Desk/mcp-desk', '--quick-ask'], { deepLinks, bundles, actions });
    const got: string[] = [];
    deepLinks.attach((u) => got.push(`link ${u}`));
    bundles.attach((p) => got.push(`bundle ${p}`));
    actions.attach((a) => got.push(`action ${a}`));
    assert.deepEqual(got, [
      `link ${link}`,
      'bundle /home/a/b c.mcpb',
      'action new-chat',
      'action quick-ask',
      'action quick-ask',
    ]);
    got.length = 0;
    dispatchArgv(['exe', 'mcp-desk://install?url=https://x.example/a.mcpb'], { deepLinks, bundles, actions });
    assert.deepEqual(got, ['link mcp-desk://install?url=https://x.example/a.mcpb'], 'a link is not a file');
  });

  it('New chat creates a conversation and shows it; Quick ask toggles its window', async () => {
    const calls: string[] = [];
    const run = launchRunner({
      router: {
        handle: async (channel: unknown, payload: unknown) => {
          calls.push(`${String(channel)} ${JSON.stringify(payload)}`);
          return { ok: true, value: channel === 'chat.create' ? { id: 'c1' } : null };
        },
      },
      showMain: () => calls.push('showMain'),
      toggleQuickAsk: () => calls.push('toggleQuickAsk'),
      onError: (t) => assert.fail(t),
    });
    run('quick-ask');
    run('new-chat');
    await waitFor('the conversation to be shown', () => (calls.length === 4 ? true : undefined));
    assert.deepEqual(calls, [
      'toggleQuickAsk',
      'showMain',
      'chat.create {}',
      'app.showConversation {"conversationId":"c1"}',
    ]);
  });
});
