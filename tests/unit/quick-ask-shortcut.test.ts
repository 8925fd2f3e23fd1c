/**
 * The quick-ask global shortcut as a setting: the Electron adapter (against the fake
 * `electron`, which records what is registered) and the host's app-settings service that
 * stores the choice, applies it live and reports whether it took.
 */
import { beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { register } from 'node:module';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acceleratorProblem } from '../../shared/domain/accelerator.js';
import { HostEvents } from '../../electron/host/host-events.js';
import { AppSettingsService } from '../../electron/host/app-settings/app-settings-service.js';
import { SettingsStore } from '../../electron/host/stores/settings-store.js';
import type { AppSettingsState } from '../../shared/domain/app-settings.js';

register('../helpers/fake-electron-hooks.mjs', import.meta.url);

const fake = await import('../helpers/fake-electron.js');
const { QuickAskShortcut, DEFAULT_QUICK_ASK_SHORTCUT } =
  await import('../../electron/main/quick-ask-shortcut.js');

const paths = { dataDir: null, configPath: '/tmp/x.json', settingsPath: null };

beforeEach(() => {
  fake.registeredShortcuts.clear();
  fake.takenShortcuts.clear();
});

describe('QuickAskShortcut', () => {
  it('registers the default, and the callback is what the shortcut runs', () => {
    let pressed = 0;
    const s = new QuickAskShortcut(() => pressed++, {});
    assert.deepEqual(s.apply(''), {
      kind: 'registered',
      accelerator: DEFAULT_QUICK_ASK_SHORTCUT,
      source: 'default',
    });
    fake.registeredShortcuts.get(DEFAULT_QUICK_ASK_SHORTCUT)?.();
    assert.equal(pressed, 1);
  });

  it('swaps live: the old accelerator is released, the new one registered', () => {
    const s = new QuickAskShortcut(() => undefined, {});
    s.apply('');
    const seen: (string | undefined)[] = [];
    s.onChange((a) => seen.push(a));
    assert.deepEqual(s.apply('Alt+Shift+K'), {
      kind: 'registered',
      accelerator: 'Alt+Shift+K',
      source: 'setting',
    });
    assert.deepEqual([...fake.registeredShortcuts.keys()], ['Alt+Shift+K']);
    assert.deepEqual(s.apply('off'), { kind: 'off', source: 'setting' });
    assert.equal(fake.registeredShortcuts.size, 0);
    assert.deepEqual(seen, ['Alt+Shift+K', undefined]);
  });

  it('reports an accelerator another app owns, and an invalid one, without throwing', () => {
    fake.takenShortcuts.add('Alt+Space');
    const s = new QuickAskShortcut(() => undefined, {});
    const taken = s.apply('Alt+Space');
    assert.equal(taken.kind, 'failed');
    assert.match(taken.kind === 'failed' ? taken.reason : '', /another application/);
    const bad = s.apply('Ctrl+Banana');
    assert.equal(bad.kind, 'failed');
    assert.match(bad.kind === 'failed' ? bad.reason : '', /not a key/);
    assert.equal(fake.registeredShortcuts.size, 0);
    assert.equal(s.current, undefined);
  });

  it('lets MCP_DESK_QUICK_ASK_SHORTCUT win over the setting', () => {
    const s = new QuickAskShortcut(() => undefined, { MCP_DESK_QUICK_ASK_SHORTCUT: 'Alt+Q' });
    assert.deepEqual(s.apply('Alt+Shift+K'), { kind: 'registered', accelerator: 'Alt+Q', source: 'env' });
    const off = new QuickAskShortcut(() => undefined, { MCP_DESK_QUICK_ASK_SHORTCUT: 'off' });
    assert.deepEqual(off.apply(''), { kind: 'off', source: 'env' });
  });
});

describe('acceleratorProblem', () => {
  it('accepts Electron accelerators and explains what is wrong with others', () => {
    for (const ok of ['CommandOrControl+Shift+Space', 'Alt+F4', 'F12', 'Ctrl+Alt+/', 'Super+Plus'])
      assert.equal(acceleratorProblem(ok), null, ok);
    assert.match(acceleratorProblem('A') ?? '', /needs a modifier/);
    assert.match(acceleratorProblem('Ctrl+Shift') ?? '', /needs a key/);
    assert.match(acceleratorProblem('Ctrl + K') ?? '', /without spaces/);
    assert.match(acceleratorProblem('K+Ctrl') ?? '', /is a key, not a modifier/);
    assert.match(acceleratorProblem('Ctrl+Ctrl+K') ?? '', /twice/);
  });
});

describe('AppSettingsService with the Electron shortcut', () => {
  it('applies the stored shortcut at start and a changed one live, persisted and broadcast', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-desk-appsettings-'));
    try {
      const store = await SettingsStore.open(join(dir, 'settings.json'));
      const events = new HostEvents();
      const broadcast: AppSettingsState[] = [];
      events.on('appSettings.changed', (s) => broadcast.push(s));
      const quickAsk = new QuickAskShortcut(() => undefined, {});
      const service = new AppSettingsService({ settings: store, events, quickAsk, paths });
      assert.equal(service.state().quickAsk.kind, 'registered');
      assert.ok(fake.registeredShortcuts.has(DEFAULT_QUICK_ASK_SHORTCUT));

      const next = await service.update({ quickAskShortcut: 'Alt+Shift+J', theme: 'dark' });
      assert.deepEqual(next.quickAsk, { kind: 'registered', accelerator: 'Alt+Shift+J', source: 'setting' });
      assert.deepEqual([...fake.registeredShortcuts.keys()], ['Alt+Shift+J']);
      assert.equal(broadcast.at(-1)?.settings.theme, 'dark');
      await store.flush();
      const onDisk = JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')) as {
        app: { quickAskShortcut: string; theme: string };
      };
      assert.equal(onDisk.app.quickAskShortcut, 'Alt+Shift+J');

      // A bad accelerator is refused with the reason, and nothing changes.
      await assert.rejects(service.update({ quickAskShortcut: 'Shift' }), /needs a key/);
      assert.deepEqual([...fake.registeredShortcuts.keys()], ['Alt+Shift+J']);

      // A restart registers what was stored.
      fake.registeredShortcuts.clear();
      const reopened = await SettingsStore.open(join(dir, 'settings.json'));
      const again = new AppSettingsService({
        settings: reopened,
        events,
        quickAsk: new QuickAskShortcut(() => undefined, {}),
        paths,
      });
      assert.equal(again.state().settings.theme, 'dark');
      assert.deepEqual([...fake.registeredShortcuts.keys()], ['Alt+Shift+J']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says "not applicable" without a desktop shell (browser mode, CLI)', () => {
    const service = new AppSettingsService({
      settings: SettingsStore.inMemory(),
      events: new HostEvents(),
      paths,
    });
    assert.deepEqual(service.state().quickAsk, { kind: 'not-applicable' });
  });
});
