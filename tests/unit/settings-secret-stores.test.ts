// The settings store and the secret stores (no keychain needed).
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  KeychainSecretStore,
  MemorySecretStore,
  type KeyringModule,
} from '../../electron/host/stores/secret-store.js';
import { DEFAULT_CHAT_SETTINGS, SettingsStore } from '../../electron/host/stores/settings-store.js';
import { HostFailure } from '../../electron/host/util/errors.js';
import { tempDir } from '../helpers/temp-dir.js';
import { rejectsWith } from '../helpers/rejects-with.js';

describe('SettingsStore', () => {
  it('starts from defaults without creating a file, and persists validated updates', async () => {
    const dir = await tempDir();
    const path = join(dir, 'settings.json');
    const store = await SettingsStore.open(path, { onWarning: (m) => assert.fail(m) });
    assert.deepEqual(store.get(), {
      provider: 'gemini',
      geminiModel: 'gemini-2.5-flash',
      geminiBaseUrl: '',
      openaiBaseUrl: 'http://127.0.0.1:11434/v1',
      openaiModel: 'llama3.1',
      maxTurns: 10,
      disabledServers: [],
      disabledTools: [],
    });
    assert.deepEqual(await readdir(dir), []);

    const next = await store.update({
      provider: 'openai',
      maxTurns: 25,
      disabledTools: ['fs/write', 'fs/write'],
    });
    assert.equal(next.provider, 'openai');
    assert.deepEqual(next.disabledTools, ['fs/write']);
    store.get().disabledTools.push('mutating a copy'); // get() hands out copies
    await store.flush();
    const reopened = await SettingsStore.open(path);
    assert.deepEqual(reopened.get(), {
      ...DEFAULT_CHAT_SETTINGS,
      provider: 'openai',
      maxTurns: 25,
      disabledTools: ['fs/write'],
    });
    const onDisk = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(onDisk).sort(), ['chat', 'trust'], 'a plain JSON object, as conf writes');
  });

  it('rejects bad updates naming the field and changes nothing', async () => {
    const dir = await tempDir();
    const path = join(dir, 'settings.json');
    const store = await SettingsStore.open(path);
    await store.update({ maxTurns: 5 });
    await store.flush();
    const before = await readFile(path, 'utf8');
    await rejectsWith(store.update({ maxTurns: 0 }), 'invalid_settings', /maxTurns/);
    // The Gemini address: empty (Google's) or an http(s) URL, nothing else.
    await rejectsWith(
      store.update({ geminiBaseUrl: 'ftp://example.com' }),
      'invalid_settings',
      /geminiBaseUrl/,
    );
    await rejectsWith(store.update({ geminiBaseUrl: 'not a url' }), 'invalid_settings', /geminiBaseUrl/);
    await rejectsWith(
      store.update({ openaiBaseUrl: 'file:///etc/passwd' }),
      'invalid_settings',
      /openaiBaseUrl/,
    );
    await rejectsWith(
      store.update({ provider: 'anthropic' } as unknown as { provider: 'gemini' }),
      'invalid_settings',
      /provider/,
    );
    await rejectsWith(
      store.update({ bogus: true } as unknown as { maxTurns: number }),
      'invalid_settings',
      /bogus/,
    );
    assert.equal(store.get().maxTurns, 5);
    await store.flush();
    assert.equal(await readFile(path, 'utf8'), before);
  });

  it('an unreadable file falls back to defaults with a warning and is kept as settings.json.bad-<ts>', async () => {
    const dir = await tempDir();
    const path = join(dir, 'settings.json');
    await writeFile(path, '{"chat": {"provider": "openai",');
    const warnings: string[] = [];
    const store = await SettingsStore.open(path, {
      onWarning: (m) => warnings.push(m),
      now: () => Date.UTC(2026, 0, 2, 3, 4, 5),
    });
    assert.deepEqual(store.get(), DEFAULT_CHAT_SETTINGS);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /not valid JSON.*kept as .*settings\.json\.bad-2026-01-02T03-04-05-000Z/);
    assert.equal(
      await readFile(join(dir, 'settings.json.bad-2026-01-02T03-04-05-000Z'), 'utf8'),
      '{"chat": {"provider": "openai",',
    );
    assert.deepEqual(
      (JSON.parse(await readFile(path, 'utf8')) as { chat: unknown }).chat,
      DEFAULT_CHAT_SETTINGS,
      'a good file replaces it',
    );

    // A second bad file in the same millisecond does not replace the first one kept aside.
    await writeFile(path, 'garbage');
    await SettingsStore.open(path, { onWarning: () => {}, now: () => Date.UTC(2026, 0, 2, 3, 4, 5) });
    assert.equal(
      await readFile(join(dir, 'settings.json.bad-2026-01-02T03-04-05-000Z-1'), 'utf8'),
      'garbage',
    );
    assert.equal(
      await readFile(join(dir, 'settings.json.bad-2026-01-02T03-04-05-000Z'), 'utf8'),
      '{"chat": {"provider": "openai",',
    );
  });

  it('keeps valid values and unknown keys of a partly invalid file, and keeps the original aside', async () => {
    const dir = await tempDir();
    const path = join(dir, 'settings.json');
    const original = JSON.stringify({
      __internal__: { migrations: { version: '0.2.0' } },
      windowBounds: { width: 800 },
      chat: { provider: 'openai', maxTurns: -3, openaiModel: 'qwen3', futureOption: 'x' },
      trust: { trustedServers: [{ serverId: 'fs', launchKey: 'k1' }, { serverId: 'bad' }] },
    });
    await writeFile(path, original);
    const warnings: string[] = [];
    const store = await SettingsStore.open(path, { onWarning: (m) => warnings.push(m) });
    assert.deepEqual(store.get(), { ...DEFAULT_CHAT_SETTINGS, provider: 'openai', openaiModel: 'qwen3' });
    assert.ok(store.trustRecords.isTrustedServer('fs', 'k1'));
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /chat\.maxTurns/);
    assert.match(warnings[0] ?? '', /trust\.trustedServers\[1\]/);
    const aside = (await readdir(dir)).filter((f) => f.startsWith('settings.json.bad-'));
    assert.equal(aside.length, 1);
    assert.equal(await readFile(join(dir, aside[0] ?? ''), 'utf8'), original);
    const rewritten = JSON.parse(await readFile(path, 'utf8')) as Record<string, Record<string, unknown>>;
    assert.deepEqual(rewritten.__internal__, { migrations: { version: '0.2.0' } });
    assert.deepEqual(rewritten.windowBounds, { width: 800 });
    assert.equal(rewritten.chat?.futureOption, 'x');
    assert.equal(rewritten.chat?.maxTurns, 10);
  });

  it('trust is keyed to the launch key: a changed launch config is not trusted', async () => {
    const dir = await tempDir();
    const path = join(dir, 'settings.json');
    const store = await SettingsStore.open(path);
    await store.trustRecords.allowAlways('fs', 'key-1', 'read_file');
    assert.equal(store.trustRecords.isAlwaysAllowed('fs', 'key-1', 'read_file'), true);
    assert.equal(
      store.trustRecords.isAlwaysAllowed('fs', 'key-2', 'read_file'),
      false,
      'different launch key',
    );
    assert.equal(store.trustRecords.isAlwaysAllowed('fs', 'key-1', 'write_file'), false, 'different tool');
    assert.equal(
      store.trustRecords.isAlwaysAllowed('other', 'key-1', 'read_file'),
      false,
      'different server',
    );

    await store.trustRecords.trustServer('git', 'g-1');
    assert.equal(store.trustRecords.isTrustedServer('git', 'g-1'), true);
    assert.equal(store.trustRecords.isTrustedServer('git', 'g-2'), false);
    assert.equal(
      store.trustRecords.isTrustedServer('fs', 'key-1'),
      false,
      'allowing one tool does not trust the server',
    );

    // Re-trusting after the command changed replaces the stale entry.
    await store.trustRecords.trustServer('git', 'g-2');
    assert.deepEqual(
      store.trustRecords.snapshot().trustedServers.map(({ grantedAt: _at, ...e }) => e),
      [{ serverId: 'git', launchKey: 'g-2' }],
    );
    await rejectsWith(store.trustRecords.allowAlways('fs', '', 'x'), 'invalid_trust');

    await store.flush();
    const reopened = await SettingsStore.open(path);
    assert.equal(reopened.trustRecords.isAlwaysAllowed('fs', 'key-1', 'read_file'), true);
    assert.equal(reopened.trustRecords.isTrustedServer('git', 'g-2'), true);
    await reopened.trustRecords.untrustServer('git');
    assert.equal(reopened.trustRecords.isTrustedServer('git', 'g-2'), false);
    await reopened.trustRecords.forgetServer('fs');
    assert.deepEqual(reopened.trustRecords.snapshot(), { alwaysAllowed: [], trustedServers: [] });
  });

  it('in memory: same rules, nothing written', async () => {
    const store = SettingsStore.inMemory({ maxTurns: 3 });
    assert.equal(store.get().maxTurns, 3);
    assert.equal(store.path, undefined);
    await store.update({ geminiModel: 'gemini-2.5-pro' });
    assert.equal(store.get().geminiModel, 'gemini-2.5-pro');
    assert.throws(() => SettingsStore.inMemory({ maxTurns: 1000 }), /maxTurns/);
  });
});

describe('secret stores (no keychain needed)', () => {
  it('MemorySecretStore sets, reports and deletes; can act as a machine without a keychain', async () => {
    const store = new MemorySecretStore();
    assert.deepEqual(await store.status(), { geminiApiKey: false, openaiApiKey: false });
    await store.set('geminiApiKey', 'AIza-secret');
    await store.set('server.github_token', 'ghp-secret');
    assert.equal(await store.get('geminiApiKey'), 'AIza-secret');
    assert.deepEqual(await store.status(), { geminiApiKey: true, openaiApiKey: false });
    assert.equal(await store.delete('geminiApiKey'), true);
    assert.equal(await store.delete('geminiApiKey'), false);

    const none = new MemorySecretStore({ unavailableReason: 'no OS keychain available' });
    await rejectsWith(none.get('geminiApiKey'), 'keychain_unavailable');
    assert.deepEqual(await none.status(), {
      geminiApiKey: false,
      openaiApiKey: false,
      keychainError: 'no OS keychain available',
    });
  });

  it('names and values are checked before the keychain is touched; errors never quote the value', async () => {
    let loaded = 0;
    const store = new KeychainSecretStore({
      loadKeyring: async () => {
        loaded++;
        throw new Error('must not be loaded');
      },
    });
    for (const name of ['../x', '', 'a b', 'x'.repeat(101), 'a/b']) {
      await rejectsWith(store.get(name), 'invalid_secret_name');
      await rejectsWith(store.set(name, 'v'), 'invalid_secret_name');
      await rejectsWith(store.delete(name), 'invalid_secret_name');
    }
    await rejectsWith(store.set('geminiApiKey', ''), 'invalid_secret', /delete it instead/);
    await assert.rejects(
      store.set('geminiApiKey', 'x'.repeat(100_001)),
      (e: Error) => !e.message.includes('xxxx'),
    );
    assert.equal(loaded, 0);
    await rejectsWith(
      store.get('geminiApiKey'),
      'keychain_unavailable',
      /keychain module could not be loaded/,
    );
  });

  it('a native failure that echoes the value is reported without it', async () => {
    const value = 'sk-live-0123456789';
    class FakeEntry {
      async setPassword(v: string): Promise<void> {
        throw new Error(`Platform secure storage failure: DBus error: cannot store ${v}\nCaused by: ...`);
      }
    }
    const fake = { AsyncEntry: FakeEntry, findCredentialsAsync: async () => [] } as unknown as KeyringModule;
    const store = new KeychainSecretStore({ loadKeyring: async () => fake, platform: 'linux' });
    await assert.rejects(store.set('openaiApiKey', value), (error: unknown) => {
      assert.ok(error instanceof HostFailure);
      assert.equal(error.code, 'keychain_unavailable');
      assert.ok(!error.message.includes(value), error.message);
      assert.ok(!error.message.includes('Caused by'), 'only the first line of the native error');
      assert.match(error.message, /gnome-keyring/);
      return true;
    });
  });
});
