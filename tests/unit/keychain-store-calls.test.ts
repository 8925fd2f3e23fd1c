/**
 * Which keychain calls KeychainSecretStore makes, and how it reads what comes back, with a
 * scripted stand-in for @napi-rs/keyring: a daemon that dies in the middle of one exact call
 * cannot be arranged on a real Secret Service. The real races and a real daemon crash are in
 * tests/integration/keychain-races.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeychainSecretStore, type KeyringModule } from '../../electron/host/stores/secret-store.js';
import { rejectsWith } from '../helpers/rejects-with.js';

const NO_REPLY =
  'Platform secure storage failure: DBus error: Message recipient disconnected from message bus without replying';
const VANISHED =
  'zbus error: org.freedesktop.DBus.Error.UnknownMethod: No such interface “org.freedesktop.Secret.Item” on object at path /org/freedesktop/secrets/collection/login/21';
const NO_BUS = 'no secret service provider or dbus session found';

type Step = string | (() => unknown);

/** A keyring whose calls answer from scripts: a string step throws it, a function step answers. */
function scriptedKeyring(script: { get?: Step[]; set?: Step[]; del?: Step[]; find?: Step[] }) {
  const calls: string[] = [];
  const next = async (kind: keyof typeof script, fallback: () => unknown) => {
    calls.push(kind);
    const step = script[kind]?.shift();
    if (typeof step === 'string') throw new Error(`${step}\nCaused by: a Rust backtrace`);
    return step ? step() : fallback();
  };
  const module = {
    AsyncEntry: class {
      constructor(
        readonly service: string,
        readonly name: string,
      ) {}
      getPassword = () => next('get', () => null);
      setPassword = () => next('set', () => undefined);
      deleteCredential = () => next('del', () => false);
    },
    findCredentialsAsync: (service: string) => {
      calls.push(`find:${service}`);
      return next('find', () => []);
    },
  } as unknown as KeyringModule;
  return { module, calls };
}

function storeOn(keyring: { module: KeyringModule }): KeychainSecretStore {
  return new KeychainSecretStore({
    service: 'S',
    loadKeyring: async () => keyring.module,
    platform: 'linux',
  });
}

describe('KeychainSecretStore calls', () => {
  it('a found value is returned without listing anything; "none" is checked on an empty service', async () => {
    const k = scriptedKeyring({ get: [() => 'v', () => null] });
    const store = storeOn(k);
    assert.equal(await store.get('a'), 'v');
    assert.deepEqual(k.calls, ['get']);
    assert.equal(await store.get('b'), undefined);
    // The check lists a service nothing is stored under, never this one (whose items may be
    // deleted while being read).
    assert.deepEqual(k.calls, ['get', 'get', 'find:S (keychain check)', 'find']);
  });

  it('"none" from a machine without a Secret Service is keychain_unavailable, for get and delete', async () => {
    const k = scriptedKeyring({ find: [NO_BUS, NO_BUS] });
    const store = storeOn(k);
    await rejectsWith(store.get('a'), 'keychain_unavailable', /no OS keychain available/);
    await rejectsWith(store.delete('a'), 'keychain_unavailable', /no OS keychain available/);
  });

  it('a call the daemon dropped (it crashed) is made once more; twice is reported', async () => {
    const k = scriptedKeyring({ get: [NO_REPLY, () => 'v'], set: [NO_REPLY], del: [NO_REPLY, () => true] });
    const store = storeOn(k);
    assert.equal(await store.get('a'), 'v');
    await store.set('a', 'value');
    assert.equal(await store.delete('a'), true);
    assert.deepEqual(k.calls, ['get', 'get', 'set', 'set', 'del', 'del']);

    const twice = scriptedKeyring({ get: [NO_REPLY, NO_REPLY] });
    await rejectsWith(storeOn(twice).get('a'), 'keychain_unavailable', /without replying/);
    assert.deepEqual(twice.calls, ['get', 'get']);
  });

  it('an item deleted between being found and being read reads as none, and deletes as nothing', async () => {
    const k = scriptedKeyring({ get: [VANISHED], del: [VANISHED] });
    const store = storeOn(k);
    assert.equal(await store.get('a'), undefined);
    assert.equal(await store.delete('a'), false);
  });

  it('a list that loses an item while reading it is read again; a list that keeps failing says why', async () => {
    const k = scriptedKeyring({ find: [VANISHED, () => [{ account: 'geminiApiKey', password: 'p' }]] });
    assert.deepEqual(await storeOn(k).names(), ['geminiApiKey']);
    assert.deepEqual(k.calls, ['find:S', 'find', 'find:S', 'find']);

    const churn = scriptedKeyring({ find: [VANISHED, VANISHED, VANISHED] });
    await rejectsWith(storeOn(churn).names(), 'keychain_error', /kept changing/);
    const status = await storeOn(scriptedKeyring({ find: [VANISHED, VANISHED, VANISHED] })).status();
    assert.match(status.keychainError ?? '', /kept changing/);

    const down = scriptedKeyring({ find: [NO_BUS] });
    await rejectsWith(storeOn(down).names(), 'keychain_unavailable', /no OS keychain available/);
  });
});
