// The dry run before trust through the real UI in real Chromium (issue 23, must-show "dry run"):
// the "snooping" bundle (tests/helpers/snooping-bundle.ts) is picked with Servers › Install
// bundle…, and its preview starts it once under bubblewrap by itself (Install waits for it). The report
// shows the command whole, the tools with the poisoned one flagged, and ~/.ssh and the loopback
// canary as refused; the canary counts 0 connections and the home folder is unchanged. Cancel
// then installs nothing. Needs Chromium, bubblewrap and strace; skipped with the reason otherwise.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { systemSandboxDetector } from '../../electron/host/connection/sandbox/sandbox-detector.js';
import { traceAvailability } from '../../electron/host/connection/sandbox/syscall-trace.js';
import { assertAccessible } from '../helpers/axe.js';
import { chromiumSkipReason, pageOrSkip, saveScreenshot } from '../helpers/chromium.js';
import { startE2eSession, type E2eSession } from '../helpers/e2e-session.js';
import { CleanupStack, REPO_ROOT } from '../helpers/host-harness.js';
import { startCanary, type LoopbackCanary } from '../helpers/loopback-canary.js';
import { buildSnoopingBundle } from '../helpers/snooping-bundle.js';
import { tempDir } from '../helpers/temp-dir.js';

function skipReasonOf(): string | null {
  if (chromiumSkipReason) return chromiumSkipReason;
  if (process.platform !== 'linux')
    return `the dry run records with bubblewrap and strace on Linux (this is ${process.platform})`;
  const sandbox = systemSandboxDetector.detect();
  if (!sandbox.ok) return sandbox.reason;
  const trace = traceAvailability();
  return trace.ok ? null : trace.reason;
}
const skipReason = skipReasonOf();

const stack = new CleanupStack();
let session: E2eSession | null = null;
let canary: LoopbackCanary;
let home = '';
let bundle = '';

before(async () => {
  if (skipReason) return;
  canary = await startCanary('dry-run-canary');
  stack.defer(() => canary.close());
  const base = await tempDir(stack, 'mcp-desk-e2e-dry-run-');
  home = join(base, 'home');
  await mkdir(join(home, '.ssh'), { recursive: true });
  await writeFile(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY (test)');
  const hostTmp = join(base, 'tmp');
  await mkdir(hostTmp);
  bundle = await buildSnoopingBundle(join(base, 'build'), canary.port);
  session = await startE2eSession({
    config: { mcpServers: {} },
    viewport: { width: 1400, height: 1000 },
    env: { ...process.env, HOME: home, TMPDIR: hostTmp },
  });
});

after(async () => {
  await session?.stop();
  await stack.run();
});

test(
  'a bundle preview dry-runs its server in the sandbox and shows what it tried',
  { timeout: 180_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, session?.page ?? null);
    const mode = session?.mode;
    if (!p || !mode) return;
    const homeBefore = (await readdir(home, { recursive: true })).sort();
    await p.goto(mode.url);
    await p.getByTestId('nav-servers').click();
    await p.getByTestId('install-bundle-file').setInputFiles(bundle);
    await p.getByTestId('bundle-summary').waitFor();

    // It starts by itself (nothing is clicked) and Install waits for its report.
    assert.equal(await p.getByTestId('bundle-install').isDisabled(), true);
    const report = p.getByTestId('bundle-dry-run-report');
    await report.waitFor({ timeout: 90_000 });
    assert.equal(await report.getAttribute('data-sandbox'), 'ran');
    assert.equal(await report.getAttribute('data-outcome'), 'listed');
    const command = (await p.getByTestId('bundle-dry-run-report-command').innerText()).split('\n');
    assert.equal(command[0], 'node');
    assert.match(command[1] ?? '', /server\/index\.mjs$/);
    assert.equal(command[2], '--verbose');
    const tools = await p
      .getByTestId('bundle-dry-run-report-tool')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-name')));
    assert.deepEqual(tools.sort(), ['read', 'weather']);
    await p
      .locator(
        '[data-testid="bundle-dry-run-report-tool"][data-name="weather"] [data-testid="tool-warnings-badge"]',
      )
      .waitFor();
    const ssh = p.locator(
      `[data-testid="bundle-dry-run-report-attempts-path"][data-op="read"][data-denied="hidden"]`,
      { hasText: join(home, '.ssh', 'id_ed25519') },
    );
    assert.equal(await ssh.count(), 1);
    const connection = p.locator(
      `[data-testid="bundle-dry-run-report-attempts-connection"][data-address="127.0.0.1:${canary.port}"]`,
    );
    assert.equal(await connection.count(), 1);
    assert.equal(canary.connections(), 0);
    await assertAccessible(p, 'the dry-run report', '[data-testid="bundle-dialog"]');
    await saveScreenshot(p, 'dry-run-bundle-report');

    // Cancel: nothing installed, nothing left in the home folder.
    await p.getByTestId('bundle-cancel').click();
    await p.getByTestId('bundle-dialog').waitFor({ state: 'hidden' });
    assert.deepEqual((await readdir(home, { recursive: true })).sort(), homeBefore);
    assert.equal(existsSync(join(dirname(mode.configPath), 'data', 'bundles', 'snooping-weather')), false);
    assert.equal(canary.connections(), 0);
  },
);

test(
  'pasted JSON: each pasted server dry-runs by itself before Import, and Import then adds it',
  { timeout: 180_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, session?.page ?? null);
    const mode = session?.mode;
    if (!p || !mode) return;
    await p.goto(mode.url);
    await p.getByTestId('nav-servers').click();
    await p.getByTestId('import-json').click();
    const snoop = join(REPO_ROOT, 'tests/fixtures/snooping-server.mjs');
    const json = JSON.stringify({ mcpServers: { pasted: { command: process.execPath, args: [snoop] } } });
    await p.getByTestId('import-json-text').fill(json);
    // Nothing is clicked: the dry run starts after a pause in typing, and Import waits for it.
    await p.getByTestId('paste-dry-run-pasted-skip').waitFor();
    assert.equal(await p.getByTestId('import-submit').isDisabled(), true);
    const report = p.getByTestId('paste-dry-run-pasted-report');
    await report.waitFor({ timeout: 90_000 });
    assert.equal(await report.getAttribute('data-sandbox'), 'ran');
    assert.equal(await report.getAttribute('data-outcome'), 'listed');
    const ssh = p.locator(
      `[data-testid="paste-dry-run-pasted-report-attempts-path"][data-op="read"][data-denied="hidden"]`,
      { hasText: join(home, '.ssh', 'id_ed25519') },
    );
    assert.equal(await ssh.count(), 1);
    await p.getByTestId('import-submit').click();
    await p.getByTestId('import-result').filter({ hasText: 'pasted' }).waitFor();
    assert.equal(canary.connections(), 0);
  },
);
