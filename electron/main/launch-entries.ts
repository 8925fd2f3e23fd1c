import { Menu } from 'electron';
import type { HostRouter } from '../host/router.js';

/** What a dock menu item, a jump-list task or its command-line flag asks for. */
export type LaunchAction = 'new-chat' | 'quick-ask';

/** The flag each action rides on in a command line (jump-list tasks relaunch the exe with it). */
export const LAUNCH_FLAGS: Record<LaunchAction, string> = {
  'new-chat': '--new-chat',
  'quick-ask': '--quick-ask',
};

const TITLES: Record<LaunchAction, { title: string; description: string }> = {
  'new-chat': { title: 'New chat', description: 'Start a new conversation' },
  'quick-ask': { title: 'Quick ask', description: 'Ask a quick question in a small window' },
};

/** The actions named on a command line, in order, each once (argv[0], the executable, skipped). */
export function launchActionsIn(argv: readonly string[]): LaunchAction[] {
  const flags = new Set(argv.slice(1));
  return (Object.keys(LAUNCH_FLAGS) as LaunchAction[]).filter((a) => flags.has(LAUNCH_FLAGS[a]));
}

/** The slice of Electron's `app` the entries are set on (a fake in tests). */
export interface LaunchEntriesApp {
  readonly dock?: { setMenu(menu: Electron.Menu): void } | undefined;
  setUserTasks(tasks: Electron.Task[]): boolean;
}

/**
 * "New chat" and "Quick ask" where the OS offers app shortcuts: the macOS dock menu (items run
 * in this process) and the Windows jump list (tasks start the executable again with a flag,
 * which the single-instance lock hands to this process as a second instance's argv). `prefix`
 * goes before the flag: run from source, Electron needs our entry script first.
 */
export function installLaunchEntries(
  app: LaunchEntriesApp,
  platform: NodeJS.Platform,
  run: (action: LaunchAction) => void,
  program: { execPath: string; prefix: readonly string[] },
): void {
  const actions = Object.keys(LAUNCH_FLAGS) as LaunchAction[];
  if (platform === 'darwin') {
    app.dock?.setMenu(
      Menu.buildFromTemplate(actions.map((a) => ({ label: TITLES[a].title, click: () => run(a) }))),
    );
  } else if (platform === 'win32') {
    app.setUserTasks(
      actions.map((a) => ({
        program: program.execPath,
        arguments: [...program.prefix.map(quote), LAUNCH_FLAGS[a]].join(' '),
        title: TITLES[a].title,
        description: TITLES[a].description,
        iconPath: program.execPath,
        iconIndex: 0,
      })),
    );
  }
}

/** Windows command-line quoting for a path that may hold spaces. */
function quote(arg: string): string {
  return /[\s"]/.test(arg) ? `"${arg.replace(/"/g, '\\"')}"` : arg;
}

/**
 * Launch actions wait here until the host is up (a jump-list task may start the app), then
 * each runs; like BundleOpener for .mcpb files and DeepLinkHook for links.
 */
export class LaunchActions {
  private readonly pending: LaunchAction[] = [];
  private target?: (action: LaunchAction) => void;

  /** Run now if the app is ready, else once it is. */
  run(action: LaunchAction): void {
    if (this.target) this.target(action);
    else this.pending.push(action);
  }

  /** The app can act: run what waited, and everything from now on. */
  attach(target: (action: LaunchAction) => void): void {
    this.target = target;
    for (const action of this.pending.splice(0)) target(action);
  }
}

/** What running a launch action needs from the app. */
export interface LaunchRunnerDeps {
  router: Pick<HostRouter, 'handle'>;
  showMain: () => void;
  toggleQuickAsk: () => void;
  onError: (text: string) => void;
}

/** Run an action: Quick ask opens its window; New chat creates a conversation and shows it. */
export function launchRunner(deps: LaunchRunnerDeps): (action: LaunchAction) => void {
  return (action) => {
    if (action === 'quick-ask') return deps.toggleQuickAsk();
    deps.showMain();
    void (async () => {
      const created = await deps.router.handle('chat.create', {});
      if (!created.ok) return deps.onError(`new chat failed: ${created.error.message}`);
      const conversationId = (created.value as { id: string }).id;
      // The window switches to it on the app.showConversation event (chat-view.tsx).
      await deps.router.handle('app.showConversation', { conversationId });
    })();
  };
}
