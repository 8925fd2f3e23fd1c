/**
 * The settings file through its two backends (conf in plain Node, electron-store in Electron),
 * and the promise that secrets never reach it. electron-store imports `electron`, and there is
 * no Electron binary on this machine, so `electron` is replaced by
 * tests/helpers/fake-electron-app.cjs through a module hook registered before the code under
 * test is imported (hence the dynamic imports below). Everything else is real: the real
 * electron-store and conf write real files.
 */
import assert from 'node:assert/strict';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createRequire, register } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Conf from 'conf';
import type { SecretStatus } from '../../shared/domain/chat.js';
import { composeHost } from '../../electron/host/compose.js';
import {
  ConfSettingsBackend,
  settingsFileOptions,
} from '../../electron/host/stores/conf-settings-backend.js';
import {
  KeychainSecretStore,
  MemorySecretStore,
  type SecretStore,
} from '../../electron/host/stores/secret-store.js';
import { chatSettingsSchema } from '../../shared/domain/chat-settings.js';
import { DEFAULT_CHAT_SETTINGS, SettingsStore } from '../../electron/host/stores/settings-store.js';
import { tempDir } from '../helpers/temp-dir.js';

register('../helpers/fake-electron-app-hooks.mjs', import.meta.url);
const { ElectronStoreSettingsBackend } = await import('../../electron/main/electron-settings-backend.js');
const fakeElectron = createRequire(import.meta.url)('../helpers/fake-electron-app.cjs') as {
  ipcListeners: string[];
  removedListeners: string[];
};

const noWarnings = { onWarning: (message: string) => assert.fail(`unexpected warning: ${message}`) };
const AT = Date.UTC(2026, 0, 2, 3, 4, 5);
const ASIDE = 'settings.json.bad-2026-01-02T03-04-05-000Z';

/** Opens `<dir>/settings.json` through conf, collecting warnings. */
async function openConf(dir: string): Promise<{ store: SettingsStore; warnings: string[] }> {
  const warnings: string[] = [];
  const store = await SettingsStore.openWith(new ConfSettingsBackend(dir), {
    onWarning: (m) => warnings.push(m),
    now: () => AT,
  });
  return { store, warnings };
}

describe('settings through conf', () => {
  it('writes <dataDir>/settings.json as { chat, trust }, readable by its owner only, and reads it back', async () => {
    const dir = await tempDir();
    const backend = new ConfSettingsBackend(dir);
    assert.equal(backend.path, join(dir, 'settings.json'));
    const store = await SettingsStore.openWith(backend, noWarnings);
    assert.deepEqual(await readdir(dir), [], 'opening writes nothing');
    await store.update({ provider: 'openai', openaiModel: 'qwen3' });
    await store.trustRecords.allowAlways('fs', 'k1', 'read_file');
    await store.flush();

    const text = await readFile(join(dir, 'settings.json'), 'utf8');
    const onDisk = JSON.parse(text) as { chat: unknown; trust: { alwaysAllowed: { grantedAt?: string }[] } };
    assert.deepEqual(Object.keys(onDisk).sort(), ['chat', 'trust']);
    assert.deepEqual(onDisk.chat, { ...DEFAULT_CHAT_SETTINGS, provider: 'openai', openaiModel: 'qwen3' });
    // When it was granted is kept for the Permissions view.
    assert.match(onDisk.trust.alwaysAllowed[0]?.grantedAt ?? '', /^\d{4}-\d\d-\d\dT/);
    delete onDisk.trust.alwaysAllowed[0]?.grantedAt;
    assert.deepEqual(onDisk.trust, {
      alwaysAllowed: [{ serverId: 'fs', launchKey: 'k1', tool: 'read_file' }],
      trustedServers: [],
    });
    assert.ok(
      text.startsWith('{\n  "chat": {\n    "provider"') && text.endsWith('}\n'),
      'two-space JSON, as before conf',
    );
    if (process.platform !== 'win32')
      assert.equal((await stat(join(dir, 'settings.json'))).mode & 0o777, 0o600);

    const reopened = (await openConf(dir)).store;
    assert.equal(reopened.get().openaiModel, 'qwen3');
    assert.ok(reopened.trustRecords.isAlwaysAllowed('fs', 'k1', 'read_file'));
  });

  it('invalid JSON: conf alone would throw while constructing; the store sets the file aside and uses defaults', async () => {
    const dir = await tempDir();
    const garbage = '{"chat": {"provider": "openai",';
    await writeFile(join(dir, 'settings.json'), garbage);
    const { name, ...rest } = settingsFileOptions(dir);
    // Why the backend builds conf lazily and catches: this is what a bare conf does with the file.
    assert.throws(() => new Conf({ ...rest, configName: name }), /not valid JSON/);

    const { store, warnings } = await openConf(dir);
    assert.deepEqual(store.get(), DEFAULT_CHAT_SETTINGS);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /not valid JSON.*kept as .*settings\.json\.bad-2026-01-02T03-04-05-000Z/);
    assert.equal(await readFile(join(dir, ASIDE), 'utf8'), garbage, 'the original is kept, byte for byte');
    assert.deepEqual(
      (JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8')) as { chat: unknown }).chat,
      DEFAULT_CHAT_SETTINGS,
    );
    await store.update({ maxTurns: 4 });
    await store.flush();
    assert.equal((await openConf(dir)).store.get().maxTurns, 4, 'later changes are saved normally');
  });

  it('hand-edited bad values: valid ones are kept, the bad ones fall back, the original is set aside', async () => {
    const dir = await tempDir();
    const original = JSON.stringify({
      chat: { maxTurns: 'lots', geminiModel: 'gemini-2.5-pro', openaiBaseUrl: 'file:///etc/passwd' },
      trust: { alwaysAllowed: 'everything', trustedServers: [{ serverId: 'git', launchKey: 'g1' }] },
    });
    await writeFile(join(dir, 'settings.json'), original);
    const { store, warnings } = await openConf(dir);
    assert.deepEqual(store.get(), { ...DEFAULT_CHAT_SETTINGS, geminiModel: 'gemini-2.5-pro' });
    assert.deepEqual(store.trustRecords.snapshot(), {
      alwaysAllowed: [],
      trustedServers: [{ serverId: 'git', launchKey: 'g1' }],
    });
    assert.equal(warnings.length, 1);
    for (const field of ['chat.maxTurns', 'chat.openaiBaseUrl', 'trust.alwaysAllowed'])
      assert.match(warnings[0] ?? '', new RegExp(field.replace('.', '\\.')));
    assert.equal(await readFile(join(dir, ASIDE), 'utf8'), original);
  });

  it('a JSON value that is not an object is set aside rather than read as settings', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'settings.json'), '["gemini", 3]');
    const { store, warnings } = await openConf(dir);
    assert.deepEqual(store.get(), DEFAULT_CHAT_SETTINGS);
    assert.match(warnings[0] ?? '', /not a JSON object/);
    assert.equal(await readFile(join(dir, ASIDE), 'utf8'), '["gemini", 3]');
  });

  it('an empty file means defaults, with no warning and nothing set aside', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'settings.json'), '  \n');
    const store = await SettingsStore.openWith(new ConfSettingsBackend(dir), noWarnings);
    assert.deepEqual(store.get(), DEFAULT_CHAT_SETTINGS);
    assert.deepEqual(await readdir(dir), ['settings.json']);
  });

  it('a backend that fails for a reason other than the file leaves the file alone and saves nothing', async () => {
    const dir = await tempDir();
    const good = JSON.stringify({ chat: { maxTurns: 3 } });
    await writeFile(join(dir, 'settings.json'), good);
    const broken = new ConfSettingsBackend(dir, {
      create: () => {
        throw new Error('Electron Store: You need to call `.initRenderer()` from the main process.');
      },
    });
    const warnings: string[] = [];
    const store = await SettingsStore.openWith(broken, { onWarning: (m) => warnings.push(m) });
    assert.match(warnings[0] ?? '', /could not be opened \(Electron Store: .*left as it is.*not be saved/);
    await store.update({ maxTurns: 9 });
    assert.equal(store.get().maxTurns, 9, 'still usable for this session');
    await store.flush();
    assert.deepEqual(await readdir(dir), ['settings.json']);
    assert.equal(await readFile(join(dir, 'settings.json'), 'utf8'), good);
  });
});

describe('settings through electron-store (Electron backend, electron faked)', () => {
  it('is built from the same options as the conf backend, by the real electron-store', async () => {
    const dir = await tempDir();
    const removedBefore = fakeElectron.removedListeners.length;
    const electronBackend = new ElectronStoreSettingsBackend(dir);
    const confBackend = new ConfSettingsBackend(dir);
    assert.deepStrictEqual(electronBackend.options, confBackend.options);
    assert.deepStrictEqual(electronBackend.options, settingsFileOptions(dir));
    assert.equal(electronBackend.path, confBackend.path);

    const store = await SettingsStore.openWith(electronBackend, noWarnings);
    // electron-store registers its renderer handshake as it is constructed (proof it, not conf,
    // ran); we remove it at once, because it answers any sender without our IPC gate's check.
    assert.deepEqual(fakeElectron.removedListeners.slice(removedBefore), ['electron-store-get-data']);
    assert.equal(
      fakeElectron.ipcListeners.includes('electron-store-get-data'),
      false,
      'no unchecked IPC listener is left',
    );
    await store.update({ maxTurns: 12, disabledServers: ['slow'] });
    await store.trustRecords.trustServer('git', 'g1');
    await store.flush();
    if (process.platform !== 'win32')
      assert.equal((await stat(join(dir, 'settings.json'))).mode & 0o777, 0o600);

    // The same edits through conf in another folder give the very same bytes.
    const other = await tempDir();
    const viaConf = await SettingsStore.openWith(new ConfSettingsBackend(other), noWarnings);
    await viaConf.update({ maxTurns: 12, disabledServers: ['slow'] });
    await viaConf.trustRecords.trustServer('git', 'g1');
    await viaConf.flush();
    // (but for when each trust was granted, which the two runs did at different moments)
    const untimed = async (d: string) =>
      (await readFile(join(d, 'settings.json'), 'utf8')).replace(/"grantedAt": "[^"]+"/g, '"grantedAt": "T"');
    assert.equal(await untimed(dir), await untimed(other));

    // The desktop app and browser mode share the data folder: each reads what the other wrote.
    const readByConf = (await openConf(dir)).store;
    assert.equal(readByConf.get().maxTurns, 12);
    assert.ok(readByConf.trustRecords.isTrustedServer('git', 'g1'));
  });

  it('sets a bad file aside the same way', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'settings.json'), 'not json');
    const warnings: string[] = [];
    const store = await SettingsStore.openWith(new ElectronStoreSettingsBackend(dir), {
      onWarning: (m) => warnings.push(m),
      now: () => AT,
    });
    assert.deepEqual(store.get(), DEFAULT_CHAT_SETTINGS);
    assert.match(warnings[0] ?? '', /not valid JSON/);
    assert.equal(await readFile(join(dir, ASIDE), 'utf8'), 'not json');
    assert.deepEqual(
      (JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8')) as { chat: unknown }).chat,
      DEFAULT_CHAT_SETTINGS,
    );
  });
});

/** Every file under `dir`, recursively, with its content. */
async function allFiles(dir: string): Promise<Array<{ path: string; text: string }>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  return Promise.all(files.map(async (path) => ({ path, text: await readFile(path, 'utf8') })));
}

async function hostWith(dir: string, secretStore: SecretStore) {
  return composeHost({ configPath: join(dir, 'mcp-servers.json'), dataDir: dir, mode: 'cli', secretStore });
}

describe('secrets never reach the settings file', () => {
  it('the settings schema is strict and has no field for a key, token or password', async () => {
    for (const field of Object.keys(chatSettingsSchema.shape))
      assert.doesNotMatch(field, /key|secret|token|password|credential/i);
    const store = SettingsStore.inMemory();
    await assert.rejects(
      store.update({ geminiApiKey: 'AIza-x' } as unknown as { maxTurns: number }),
      /geminiApiKey/,
    );
  });

  it('a Gemini key set through the router goes to the secret store, never into settings.json or the data folder', async () => {
    const dir = await tempDir();
    const secretStore = new MemorySecretStore();
    const key = 'AIzaSy-settings-test-7f3c1e9b2d';
    const services = await hostWith(dir, secretStore);
    const set = await services.router.handle('secrets.set', { name: 'geminiApiKey', value: key });
    assert.deepEqual(set, { ok: true, value: { geminiApiKey: true, openaiApiKey: false } });
    // Also write settings, so there is a settings.json to look in.
    assert.equal(
      (await services.router.handle('settings.update', { geminiModel: 'gemini-2.5-pro' })).ok,
      true,
    );
    const sneaky = await services.router.handle('settings.update', { geminiApiKey: key });
    assert.equal(sneaky.ok, false, 'settings.update refuses a field it does not know');
    await services.dispose();

    assert.equal(await secretStore.get('geminiApiKey'), key);
    const settingsText = await readFile(join(dir, 'settings.json'), 'utf8');
    assert.ok(!settingsText.includes(key), 'settings.json holds no key');
    assert.equal(
      (JSON.parse(settingsText) as { chat: { geminiModel: unknown } }).chat.geminiModel,
      'gemini-2.5-pro',
    );
    const files = await allFiles(dir);
    assert.ok(files.length > 0);
    for (const file of files) assert.ok(!file.text.includes(key), `${file.path} holds the key`);
  });

  it('without a keychain, setting a key fails with a clear message and writes it nowhere (no plaintext fallback)', async () => {
    const dir = await tempDir();
    const noKeychain = new KeychainSecretStore({
      service: 'mcp-desk-settings-test',
      platform: 'linux',
      // As @napi-rs/keyring behaves without D-Bus: writes and lists fail, reads and deletes say "none".
      loadKeyring: async () => ({
        AsyncEntry: class {
          async setPassword(): Promise<void> {
            throw new Error('Platform secure storage failure: DBus error: no session bus');
          }
          async getPassword(): Promise<null> {
            return null;
          }
          async deleteCredential(): Promise<boolean> {
            return false;
          }
        } as never,
        findCredentialsAsync: async () => {
          throw new Error('Platform secure storage failure: DBus error: no session bus');
        },
      }),
    });
    const key = 'AIzaSy-no-keychain-4b8d0a6c1f';
    const services = await hostWith(dir, noKeychain);
    const set = await services.router.handle('secrets.set', { name: 'geminiApiKey', value: key });
    assert.equal(set.ok, false);
    assert.ok(!set.ok && set.error.code === 'keychain_unavailable');
    assert.ok(
      !set.ok && /no OS keychain available.*gnome-keyring/.test(set.error.message),
      !set.ok ? set.error.message : '',
    );
    const status = await services.router.handle('secrets.status', {});
    assert.ok(status.ok);
    const reported = status.value as SecretStatus;
    assert.equal(reported.geminiApiKey, false);
    assert.match(reported.keychainError ?? '', /no OS keychain available/);
    await services.router.handle('settings.update', { maxTurns: 5 });
    await services.dispose();
    for (const file of await allFiles(dir)) assert.ok(!file.text.includes(key), `${file.path} holds the key`);
  });
});
