/**
 * Must show 3 of issue 16: the app's error log and "Copy diagnostics" hold no secret and no
 * config value. A real host with its data on disk and a log in <dataDir>/logs, server-everything
 * over stdio with a secret in its env and secret arguments, a remote entry with an Authorization
 * header, and a Gemini key in the OS keychain (gnome-keyring in the session npm test starts; with
 * no keychain, a memory store, said so). Errors that quote each secret are logged the
 * ways the app logs them (main, a renderer report through the router, a process hook); then the
 * log files and the diagnostics text are scanned, as the audit test scans the audit directory.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { HostLog, logProcessErrors } from '../../electron/host/diagnostics/host-log.js';
import {
  KeychainSecretStore,
  MemorySecretStore,
  type SecretStore,
} from '../../electron/host/stores/secret-store.js';
import {
  CleanupStack,
  createTestHost,
  freePort,
  SERVERS,
  waitFor,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';
import { tempDir } from '../helpers/temp-dir.js';
import { CI } from '../helpers/keychain-check.js';

const ENV_SECRET = 'env-secret-diag-4b1e9f';
const ARG_SECRET = 'arg-secret-diag-77aa';
const ARG_VALUE = '--token=${secret:diag_arg}';
const HEADER_SECRET = 'hdr_secret_diag_5c2d';
const GEMINI_KEY = `AIzaDiag${randomBytes(8).toString('hex')}`;
const SECRETS = [ENV_SECRET, HEADER_SECRET, GEMINI_KEY, ARG_SECRET];
const stack = new CleanupStack();
let h: TestHost;
let dataDir: string;
let log: HostLog;
let keychainNote = '';

/** The real keychain under a throwaway service, or memory when this machine has none (never in CI). */
async function secretStore(): Promise<SecretStore> {
  const keychain = new KeychainSecretStore({
    service: `MCP Desk diag test ${randomBytes(4).toString('hex')}`,
  });
  try {
    await keychain.set('geminiApiKey', GEMINI_KEY);
    stack.defer(async () => void (await keychain.delete('geminiApiKey')));
    return keychain;
  } catch (error) {
    if (CI) throw error;
    keychainNote = `no usable keychain here (${(error as Error).message}): the key is in a memory store`;
    return new MemorySecretStore({ initial: { geminiApiKey: GEMINI_KEY } });
  }
}

before(async () => {
  dataDir = join(await tempDir(stack), 'data');
  log = HostLog.inDataDir(dataDir, '0.1.0-test');
  const deadPort = await freePort();
  h = await createTestHost(stack, {
    dataDir,
    log,
    init: false,
    secretStore: await secretStore(),
    servers: {
      everything: {
        command: process.execPath,
        args: [SERVERS.everything, 'stdio', ARG_VALUE],
        env: { API_KEY: ENV_SECRET },
      },
      remote: {
        url: `http://127.0.0.1:${deadPort}/mcp?key=url-value-diag`,
        headers: { Authorization: `Bearer ${HEADER_SECRET}`, 'X-Plain': 'plain-header-diag' },
      },
    },
  });
  if (keychainNote) console.log(`# ${keychainNote}`);
  // The argument's secret is a server secret in the keychain, as the server form stores it.
  const set = await h.router.handle('serverSecrets.set', { name: 'diag_arg', value: ARG_SECRET });
  assert.ok(set.ok, JSON.stringify(set));
  await h.host.init();
  await waitForState(h.host, 'everything', 'connected');
  await waitFor('the remote entry to give up', () => {
    const s = h.host.list().find((x) => x.id === 'remote')?.state.kind;
    return s === 'failed' || s === 'reconnecting' ? true : undefined;
  });
});
after(() => stack.run());

test('log files and diagnostics hold no secret and no config value', async () => {
  // Main: an uncaught exception and an unhandled rejection quoting every secret.
  const proc = new EventEmitter();
  logProcessErrors(proc, log, 'main', { rejections: true });
  proc.emit(
    'uncaughtExceptionMonitor',
    new Error(`connect failed with ${SECRETS.join(' / ')}`),
    'uncaughtException',
  );
  proc.emit('unhandledRejection', new Error(`Authorization: Bearer ${HEADER_SECRET}; key=${GEMINI_KEY}`));
  // A renderer's uncaught error, through the contract as the window sends it.
  const reported = await h.router.handle('diagnostics.reportError', {
    kind: 'error',
    message: `TypeError: ${GEMINI_KEY}`,
    stack: `TypeError: bad ${ENV_SECRET} and ${HEADER_SECRET}\n    at x (app.js:1:2)`,
    where: 'app.js:1:2',
    view: 'main',
  });
  assert.ok(reported.ok, JSON.stringify(reported));
  // Oversized reports are refused by the contract's caps, not logged.
  const huge = await h.router.handle('diagnostics.reportError', {
    kind: 'error',
    message: 'x'.repeat(10_000),
  });
  assert.equal(huge.ok, false);
  log.warn('host', `a plain warning naming ${ENV_SECRET}`);

  const diag = await h.router.handle('diagnostics.get', {});
  assert.ok(diag.ok, JSON.stringify(diag));
  const text = (diag.value as { text: string }).text;
  assert.match(text, /^MCP Desk 0\.1\.0 \(cli\)$/m);
  assert.match(text, /Node v?\d+\.\d+/);
  assert.match(text, new RegExp(`Data folder: ${dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  assert.match(text, /- everything: stdio, connected, era (legacy|modern)/);
  assert.match(text, /- remote: http, (failed|reconnecting) \(.*\), era unknown/);

  const files = await readdir(join(dataDir, 'logs'));
  assert.ok(files.includes('main.log'));
  const logText = (await Promise.all(files.map((f) => readFile(join(dataDir, 'logs', f), 'utf8')))).join(
    '\n',
  );
  assert.match(
    logText,
    /ERROR v0\.1\.0-test main: uncaught exception: Error: connect failed with \[redacted\]/,
  );
  assert.match(logText, /ERROR v0\.1\.0-test renderer: uncaught error in main at app\.js:1:2/);
  assert.match(logText, /WARN v0\.1\.0-test host: a plain warning/);

  const configValues = [
    ARG_VALUE,
    SERVERS.everything,
    process.execPath,
    'API_KEY',
    `127.0.0.1`,
    'url-value-diag',
    'plain-header-diag',
    'X-Plain',
  ];
  for (const secret of SECRETS) {
    assert.ok(!logText.includes(secret), `the log holds a secret: ${secret}`);
    assert.ok(!text.includes(secret), `the diagnostics hold a secret: ${secret}`);
  }
  for (const value of configValues)
    assert.ok(!text.includes(value), `the diagnostics hold a config value: ${value}`);
});
