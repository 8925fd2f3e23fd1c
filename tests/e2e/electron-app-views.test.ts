// MCP App views in the desktop app itself (issue 28), through Playwright's `_electron`: the same
// vault and intruder views as tests/e2e/mcp-apps-isolation.test.ts, on the `mcp-desk-sandbox://`
// scheme. Each view has a host, so an origin, a storage partition and a permission key, of its own;
// the intruder cannot reach the vault's DOM, proxy, realm or storage; and its WebRTC goes nowhere
// (the network rules of electron/main/webrtc-block.ts, counted by the app's refusing proxy).
// Needs an Electron binary and a display (see tests/helpers/electron-binary.ts): skipped here,
// run on the hosted runners, where MCP_DESK_REQUIRE_ELECTRON=1 makes a skip a failure.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test, type TestContext } from 'node:test';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { startFakeGemini, type FakeGemini } from '../fixtures/fake-gemini.js';
import { repoRoot } from '../helpers/browser-mode.js';
import { electronBinary, electronRequired, electronSkipReason } from '../helpers/electron-binary.js';
import { HOSTILE_APP_SERVER, startProbeServer, type ProbeServer } from '../helpers/hostile-app.js';
import {
  openViewThroughChat,
  readIntruderResults,
  startRtcCanary,
  trustServer,
  VAULT_APP_SERVER,
  viewFrame,
  type RtcCanary,
} from '../helpers/isolation-app.js';
import { waitFor } from '../helpers/wait.js';

const STEP = 30_000;
const binary = electronBinary();
const skipReason = electronSkipReason(binary);
const API_KEY = `el-${randomBytes(8).toString('hex')}`;
const SECRET = `VAULT-SECRET-${randomBytes(8).toString('hex')}`;
const BLOCKED = /^blocked: SecurityError/;

let app: ElectronApplication | null = null;
let main: Page | null = null;
let gemini: FakeGemini | null = null;
let probe: ProbeServer | null = null;
let canary: ProbeServer | null = null;
let rtc: RtcCanary | null = null;
let dir = '';

before(async () => {
  if (skipReason) {
    console.log(`electron app views e2e skipped: ${skipReason}`);
    return;
  }
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-desk-electron-views-')));
  probe = await startProbeServer();
  canary = await startProbeServer();
  rtc = await startRtcCanary();
  gemini = await startFakeGemini({ apiKey: API_KEY, script: [] });
  const data = join(dir, 'data');
  mkdirSync(data, { recursive: true });
  writeFileSync(
    join(data, 'mcp-servers.json'),
    JSON.stringify({
      mcpServers: {
        vault: {
          command: process.execPath,
          args: [VAULT_APP_SERVER],
          env: { VAULT_SECRET: SECRET, VAULT_CONNECT: canary.origin, VAULT_TRACE: join(dir, 'vault.jsonl') },
        },
        hostile: { command: process.execPath, args: [HOSTILE_APP_SERVER] },
      },
    }),
  );
  app = await _electron.launch({
    executablePath: (binary as { path: string }).path,
    args: [repoRoot],
    env: {
      ...process.env,
      MCP_DESK_DATA_DIR: data,
      MCP_DESK_GEMINI_BASE_URL: gemini.baseUrl,
      MCP_DESK_KEYCHAIN_SERVICE: `MCP Desk electron views e2e ${randomBytes(6).toString('hex')}`,
      MCP_DESK_E2E: '1',
      MCP_DESK_QUICK_ASK_SHORTCUT: 'off',
    },
  });
  main = await app.firstWindow();
  await main.getByTestId('nav-chat').waitFor({ timeout: STEP });
  await main.evaluate(
    `window.host.invoke('secrets.set', { name: 'geminiApiKey', value: ${JSON.stringify(API_KEY)} })`,
  );
  for (const id of ['vault', 'hostile']) {
    await main.getByTestId('nav-servers').click();
    await main
      .locator(`[data-testid="server-state-${id}"][data-state="connected"]`)
      .waitFor({ timeout: 60_000 });
    await trustServer(main, id);
  }
  await main.getByTestId('nav-chat').click();
});

after(async () => {
  await main
    ?.evaluate(`window.host.invoke('secrets.delete', { name: 'geminiApiKey' })`)
    .catch(() => undefined);
  await app?.close();
  await gemini?.close();
  await probe?.close();
  await canary?.close();
  await rtc?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function ready(t: TestContext): { app: ElectronApplication; main: Page; gemini: FakeGemini } | null {
  if (skipReason || !app || !main || !gemini) {
    if (electronRequired) assert.fail(`MCP_DESK_REQUIRE_ELECTRON=1 but ${skipReason ?? 'setup failed'}`);
    t.skip(skipReason ?? 'setup failed');
    return null;
  }
  return { app, main, gemini };
}

test(
  'electron: each view has an origin of its own on the sandbox scheme, and cannot reach another',
  { timeout: 180_000 },
  async (t) => {
    const r = ready(t);
    if (!r) return;
    await openViewThroughChat(r.main, r.gemini, 'vault', 'open-vault', {});
    await viewFrame(r.main, 'open-vault', 'vault')
      .frameLocator('#view')
      .locator('#state[data-ready="true"]')
      .waitFor({ timeout: STEP });
    await openViewThroughChat(r.main, r.gemini, 'hostile', 'intrude', {
      mode: 'cross-view',
      probeUrl: probe!.url,
      canaryUrl: `${canary!.origin}/canary`,
    });
    const sources = await r.main.locator('[data-testid="app-view-frame"]').evaluateAll(
      // Page-side code as text: this file is type-checked without the DOM library.
      (frames) => frames.map((f) => (f as unknown as { src: string }).src),
    );
    assert.equal(sources.length, 2);
    for (const src of sources) assert.match(src, /^mcp-desk-sandbox:\/\/([0-9a-f]{32})\/view\/\1$/, src);
    assert.notEqual(new URL(sources[0]).host, new URL(sources[1]).host, 'no two views share an origin');

    const results = await readIntruderResults(r.main);
    for (const read of results.crossViewDom?.reads ?? ['missing']) assert.match(read, BLOCKED, read);
    for (const a of [
      ...(results.crossViewToolCall?.attempts ?? ['missing']),
      ...(results.forgedContext?.attempts ?? ['missing']),
      ...(results.borrowedCsp?.throughOthers ?? ['missing']),
      ...(results.csplessPage?.navigated ?? ['missing']),
    ])
      assert.match(a, BLOCKED, a);
    assert.equal(results.sharedStorage?.secret, null, JSON.stringify(results.sharedStorage));
    assert.ok(!JSON.stringify(results).includes(SECRET), 'the secret appears nowhere the intruder recorded');
    const trace = readFileSync(join(dir, 'vault.jsonl'), 'utf8');
    assert.doesNotMatch(trace, /vault-transfer/, 'the vault server ran no transfer');
    assert.deepEqual(canary!.hits, [], 'nothing reached the origin only the vault declared');
    assert.deepEqual(probe!.hits, [], 'nothing reached the probe');
  },
);

test(
  'electron: views are held to the focus policy, and their WebRTC goes nowhere',
  { timeout: 120_000 },
  async (t) => {
    const r = ready(t);
    if (!r) return;
    const features = await r.app.evaluate(({ app: a }) => a.commandLine.getSwitchValue('enable-features'));
    assert.match(features, /BlockingFocusWithoutUserActivation/, 'the focus policy feature is on');
    const enforced = await r.main.evaluate(
      `document.featurePolicy?.features().includes('focus-without-user-activation') ?? false`,
    );
    console.log(`electron: this Chromium enforces focus-without-user-activation: ${String(enforced)}`);

    await openViewThroughChat(r.main, r.gemini, 'hostile', 'intrude', {
      mode: 'webrtc',
      rtc: { udpPort: rtc!.udpPort, tcpPort: rtc!.tcpPort },
    });
    const results = await readIntruderResults(r.main);
    assert.equal(results.webrtc?.own, 'own: constructed', JSON.stringify(results.webrtc));
    assert.equal(results.webrtc?.nested, 'nested: constructed', JSON.stringify(results.webrtc));
    assert.equal(
      await r.main.getByTestId('app-view-webrtc-note').count(),
      0,
      'no WebRTC disclosure: it is blocked',
    );
    await waitFor('both TURN relays to reach the refusing proxy', async () => {
      const refused = await r.app.evaluate(() =>
        (
          globalThis as unknown as { mcpDeskE2E: { viewProxyRefused(): number } }
        ).mcpDeskE2E.viewProxyRefused(),
      );
      return refused >= 2 ? true : undefined;
    });
    assert.deepEqual(rtc!.hits(), { udp: 0, tcp: 0 }, 'nothing reached the WebRTC canary');
  },
);
