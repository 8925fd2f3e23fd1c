// Network rules in the real UI (issue 23 must-show "network allowlist"): a sandboxed server whose
// rule allows one loopback host asks, as it starts, for that host and for another through the
// host's proxy. Servers › Info lists both with their verdicts, and the refused host's canary
// counts no connection. Needs Chromium and a working bubblewrap; skipped with the reason otherwise.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { systemSandboxDetector } from '../../electron/host/connection/sandbox/sandbox-detector.js';
import { chromiumSkipReason, pageOrSkip, saveScreenshot } from '../helpers/chromium.js';
import { startE2eSession, type E2eSession } from '../helpers/e2e-session.js';
import { CleanupStack, REPO_ROOT } from '../helpers/host-harness.js';
import { startCanary, type LoopbackCanary } from '../helpers/loopback-canary.js';

const PROBE = join(REPO_ROOT, 'tests/fixtures/net-probe-server.mjs');

function skipReasonOf(): string | null {
  if (chromiumSkipReason) return chromiumSkipReason;
  if (process.platform !== 'linux')
    return `network rules are enforced with bubblewrap on Linux (this is ${process.platform})`;
  const sandbox = systemSandboxDetector.detect();
  return sandbox.ok ? null : sandbox.reason;
}
const skipReason = skipReasonOf();

const stack = new CleanupStack();
let session: E2eSession | null = null;
let allowed: LoopbackCanary;
let refused: LoopbackCanary;

before(async () => {
  if (skipReason) return;
  allowed = await startCanary('allowed');
  refused = await startCanary('refused');
  stack.defer(() => allowed.close());
  stack.defer(() => refused.close());
  session = await startE2eSession({
    config: {
      mcpServers: {
        listed: {
          command: process.execPath,
          args: [
            PROBE,
            `--get-at-start=127.0.0.1:${allowed.port}`,
            `--get-at-start=127.0.0.1:${refused.port}`,
          ],
          network: { allow: [`127.0.0.1:${allowed.port}`] },
        },
      },
    },
    viewport: { width: 1400, height: 900 },
    connect: ['listed'],
  });
});

after(async () => {
  await session?.stop();
  await stack.run();
});

test('Servers › Info lists the allowed and the refused destination', { timeout: 120_000 }, async (t) => {
  const p = pageOrSkip(t, skipReason, session?.page ?? null);
  if (!p) return;
  await p.getByTestId('nav-servers').click();
  await p.getByTestId('server-row-listed').click();
  await p.getByTestId('tab-info').click();
  const row = (port: number) =>
    p.locator(`[data-testid="server-network-destination"][data-destination="127.0.0.1:${port}"]`);
  await row(allowed.port).waitFor();
  await row(refused.port).waitFor();
  assert.equal(await row(allowed.port).getAttribute('data-allowed'), 'yes');
  assert.equal(await row(refused.port).getAttribute('data-allowed'), 'no');
  assert.match(
    (await p.getByTestId('server-network-rule').textContent()) ?? '',
    new RegExp(`127\\.0\\.0\\.1:${allowed.port}`),
  );
  await allowed.reached(1);
  assert.equal(refused.connections(), 0);
  await saveScreenshot(p, 'network-rules-info');
});
