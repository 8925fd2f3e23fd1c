/**
 * The auto-update policy end to end but for Electron itself: UpdateController over the real
 * electron-updater (ElectronUpdaterSource + a local feed), a real PendingBroker for the requests
 * that wait for the person, the tray and the app menu against the recording fake of `electron`,
 * the host's app settings for the on/off switch, and injectable timers to step through days.
 */
import { before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { register } from 'node:module';
import { join } from 'node:path';
import { HostEvents } from '../../electron/host/host-events.js';
import { AppSettingsService } from '../../electron/host/app-settings/app-settings-service.js';
import { PendingBroker } from '../../electron/host/pending/pending-broker.js';
import { SettingsStore } from '../../electron/host/stores/settings-store.js';
import { ElectronUpdaterSource } from '../../electron/main/updates/electron-updater-source.js';
import type { UpdateTimers } from '../../electron/main/updates/update-controller.js';
import { localUpdater, startUpdateFeed, type UpdateFeed } from '../helpers/update-feed.js';
import { tempDir } from '../helpers/temp-dir.js';
import { waitFor } from '../helpers/wait.js';

register('../helpers/fake-electron-hooks.mjs', import.meta.url);

const fake = await import('../helpers/fake-electron.js');
const { DeskTray } = await import('../../electron/main/desk-tray.js');
const { appMenuTemplate, installAppMenu } = await import('../../electron/main/app-menu.js');
const { DesktopUpdates } = await import('../../electron/main/updates/desktop-updates.js');
const { UpdateController } = await import('../../electron/main/updates/update-controller.js');
const { confirmRestart } = await import('../../electron/main/updates/update-menu.js');

const DAY = 24 * 60 * 60 * 1000;

/** Timers that fire only when the test moves the clock. */
class ManualTimers implements UpdateTimers {
  private now = 0;
  private next = 1;
  private readonly due = new Map<number, { at: number; callback: () => void }>();
  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.next++;
    this.due.set(id, { at: this.now + ms, callback });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.due.delete(handle as number);
  }
  get pending(): number {
    return this.due.size;
  }
  advance(ms: number): void {
    this.now += ms;
    for (const [id, t] of [...this.due].sort((a, b) => a[1].at - b[1].at)) {
      if (t.at > this.now) continue;
      this.due.delete(id);
      t.callback();
    }
  }
}

let root = '';
before(async () => {
  root = await tempDir(undefined, 'mcp-desk-update-controller-');
});
beforeEach(() => {
  fake.messageBoxCalls.length = 0;
  fake.applicationMenu.current = null;
});

/** A tool approval waiting for the person, as a chat raises it. */
function waitingApproval(broker: PendingBroker) {
  return broker.ask({
    kind: 'tool-approval',
    callId: 'c1',
    conversationId: 'conv',
    serverId: 'fs',
    tool: 'write_file',
    inputSchema: { type: 'object' },
    args: {},
    reason: 'writes a file',
  });
}

/** Labels of a menu, submenus included. */
function labels(items: readonly { label?: string; submenu?: unknown }[] | undefined): string[] {
  return (items ?? []).flatMap((i) => [
    ...(i.label ? [i.label] : []),
    ...labels(Array.isArray(i.submenu) ? (i.submenu as { label?: string }[]) : undefined),
  ]);
}

const RESTART = 'Restart to update (v0.2.0)';

async function withFeed(name: string, run: (feed: UpdateFeed, dir: string) => Promise<void>): Promise<void> {
  const feed = await startUpdateFeed('0.2.0');
  try {
    await run(feed, join(root, name));
  } finally {
    await feed.close();
  }
}

describe('UpdateController', { timeout: 60_000 }, () => {
  it('checks on start, downloads, and offers "Restart to update" only while no request waits', () =>
    withFeed('offer', async (feed, dir) => {
      const updater = localUpdater(feed.url, dir, '0.1.0');
      let installs = 0;
      // The real install would replace this process's "AppImage" and quit.
      updater.quitAndInstall = () => void installs++;
      const timers = new ManualTimers();
      const broker = new PendingBroker(new HostEvents());
      const updates = new DesktopUpdates(
        () => broker.list().length,
        new ElectronUpdaterSource(updater),
        timers,
      );
      const tray = new DeskTray(
        { openMain() {}, quickAsk() {}, pickFolders() {}, dropFolders() {}, quit() {} },
        undefined,
      );
      const menus = () => {
        tray.setUpdateItems(updates.menuItems());
        installAppMenu({ update: updates.menuItems() });
      };
      updates.onChange(menus);
      try {
        assert.deepEqual(updates.controller.apply(true), { kind: 'on' });
        assert.equal(feed.checks(), 0, 'the first check waits until start-up is over');
        timers.advance(10_000);
        await waitFor('the update to be downloaded', () =>
          updates.controller.state().kind === 'ready' ? true : undefined,
        );
        assert.deepEqual(updates.controller.state(), {
          kind: 'ready',
          version: '0.2.0',
          releaseNotes: 'What changed\n\n• Faster tool calls\n• Fixes & polish',
        });
        assert.equal(feed.downloads(), 1, 'downloaded in the background, unasked');
        const trayMenu = () => labels(fake.trays.at(-1)?.menu?.items);
        assert.ok(trayMenu().includes(RESTART), trayMenu().join(' | '));
        assert.ok(labels(fake.applicationMenu.current?.items).includes(RESTART));
        const item = fake.trays.at(-1)?.menu?.items.find((i) => i.label === RESTART);
        assert.equal(item?.toolTip, 'What changed', 'the notes start in its tooltip');

        // A request starts waiting: the item goes, and a restart is refused.
        const offer = updates.controller.restartOffer();
        assert.ok(offer);
        const approval = waitingApproval(broker);
        menus();
        assert.ok(!trayMenu().includes(RESTART));
        assert.ok(!labels(fake.applicationMenu.current?.items).includes(RESTART));
        assert.equal(updates.controller.restartOffer(), undefined);
        assert.deepEqual(updates.controller.restart(), {
          kind: 'refused',
          reason: '1 request waits for you; answer it first',
        });
        // A dialog opened before the request arrived: "Restart now" is still refused, and said so.
        fake.messageBoxAnswer.response = 0;
        await confirmRestart(offer, () => updates.controller.restart());
        assert.equal(installs, 0, 'never installed while a request waits');
        assert.equal(fake.messageBoxCalls.at(-1)?.title, 'Update not installed');
        assert.match(
          String(fake.messageBoxCalls.at(-1)?.detail),
          /^1 request waits for you; answer it first\./,
        );

        // Answered: the item is back; its dialog shows the notes, and "Restart now" installs.
        broker.cancelWhere(() => true);
        assert.equal(await approval, 'cancelled');
        menus();
        assert.ok(trayMenu().includes(RESTART));
        fake.trays
          .at(-1)
          ?.menu?.items.find((i) => i.label === RESTART)
          ?.click?.();
        await waitFor('the install', () => (installs === 1 ? true : undefined));
        const shown = fake.messageBoxCalls.at(-1);
        assert.equal(shown?.message, 'MCP Desk 0.2.0 is ready to install');
        assert.match(String(shown?.detail), /• Faster tool calls\n• Fixes & polish/);

        // "Later" installs nothing.
        fake.messageBoxAnswer.response = 1;
        await updates.confirm();
        assert.equal(installs, 1);
      } finally {
        fake.messageBoxAnswer.response = 0;
        updates.dispose();
        tray.dispose();
      }
    }));

  it('checks daily while on; turning checks off in Settings stops them', () =>
    withFeed('off', async (feed, dir) => {
      const timers = new ManualTimers();
      const controller = new UpdateController({
        // Already at the feed's version: every check answers "nothing newer".
        source: new ElectronUpdaterSource(localUpdater(feed.url, dir, '0.2.0')),
        waitingRequests: () => 0,
        timers,
        env: {},
      });
      const settings = new AppSettingsService({
        settings: SettingsStore.inMemory(),
        events: new HostEvents(),
        updateChecks: controller,
        paths: { dataDir: null, configPath: '/tmp/x.json', settingsPath: null },
      });
      const checked = async (n: number) => {
        await waitFor(`check ${n}`, () => (feed.checks() === n ? true : undefined));
        await waitFor('the check to end', () => (controller.state().kind === 'idle' ? true : undefined));
      };
      try {
        assert.deepEqual(settings.state().updates, { kind: 'on' });
        timers.advance(10_000);
        await checked(1);
        timers.advance(DAY);
        await checked(2);
        assert.equal(timers.pending, 1, 'the next daily check is scheduled');

        const next = await settings.update({ autoUpdateCheck: false });
        assert.deepEqual(next.updates, { kind: 'off', source: 'setting' });
        assert.equal(timers.pending, 0, 'the timer is gone');
        timers.advance(7 * DAY);
        assert.equal(feed.checks(), 2, 'no check after the switch');

        // On again: checks resume.
        await settings.update({ autoUpdateCheck: true });
        timers.advance(10_000);
        await checked(3);
      } finally {
        controller.dispose();
      }
    }));

  it('MCP_DESK_UPDATES=off wins over the setting', () => {
    const timers = new ManualTimers();
    const controller = new UpdateController({
      source: {
        checkForUpdates: () => Promise.reject(new Error('must not be asked')),
        downloadUpdate: () => Promise.reject(new Error('must not be asked')),
        quitAndInstall: () => assert.fail('must not install'),
        on: () => () => undefined,
      },
      waitingRequests: () => 0,
      timers,
      env: { MCP_DESK_UPDATES: 'off' },
    });
    assert.deepEqual(controller.apply(true), { kind: 'off', source: 'env' });
    assert.equal(timers.pending, 0);
    assert.deepEqual(controller.restart(), { kind: 'refused', reason: 'no update has been downloaded' });
  });

  it('puts "Restart to update" in the app menu on macOS and atop Help elsewhere', () => {
    const update = [{ label: RESTART }];
    const mac = appMenuTemplate({ update }, 'darwin');
    assert.ok(labels(mac[0]?.submenu as { label?: string }[]).includes(RESTART));
    assert.ok(!mac.some((m) => m.role === 'help'), 'nothing else in Help yet');
    const linux = appMenuTemplate({ update }, 'linux');
    assert.deepEqual(labels(linux.find((m) => m.role === 'help')?.submenu as { label?: string }[]), [
      RESTART,
    ]);
    assert.ok(!appMenuTemplate({ update: [] }, 'linux').some((m) => m.role === 'help'));
  });
});
