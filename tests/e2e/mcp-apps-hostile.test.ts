// A hostile MCP App view in chat, end to end (issue 13, must-show 2). The fake Gemini calls our
// hostile fixture's view tool; its view appears under the tool card inside the real sandbox proxy
// (a second loopback origin) and tries every escape: the app's DOM and bridge token, navigating
// the top window, a popup, undeclared network, another server's tool, a model-only tool, 50 calls
// at once, malformed JSON-RPC. The view's own record says each failed; the host's side says the
// same: the audit log (refusals, no call to server-everything), the fixture's trace of what
// reached it, the unchanged page address, no popup page, and a chat that still works after.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { functionCall, reply, text } from '../fixtures/fake-gemini.js';
import { chromiumSkipReason, pageOrSkip } from '../helpers/chromium.js';
import { EVERYTHING_SERVER, everythingSkipReason, keychainSkipReason } from '../helpers/e2e-app.js';
import { e2eEvidence, startE2eSession, type E2eSession } from '../helpers/e2e-session.js';
import {
  assertBrowserBlocked,
  assertProtocolRefused,
  HOSTILE_APP_SERVER,
  readHostileResults,
  startProbeServer,
  type HostileResults,
  type ProbeServer,
} from '../helpers/hostile-app.js';

const API_KEY = `e2e-${randomBytes(12).toString('hex')}`;
const STEP = 30_000;
const VIEWPORT = { width: 1300, height: 900 };
/** How the host names the fixture's view tool for the model (electron/host/chat/tool-names.ts). */
const SHOW_VIEW_FOR_MODEL = 'hostile__show-view';
const skipReason =
  chromiumSkipReason ?? everythingSkipReason ?? keychainSkipReason('the API key is kept in the OS keychain');

let session: E2eSession | null = null;
let probe: ProbeServer | null = null;
let traceDir = '';
const consoleLines: string[] = [];

before(async () => {
  if (skipReason) {
    console.log(`mcp-apps-hostile e2e skipped: ${skipReason}`);
    return;
  }
  probe = await startProbeServer();
  traceDir = mkdtempSync(join(tmpdir(), 'mcp-desk-hostile-'));
  session = await startE2eSession({
    gemini: { apiKey: API_KEY, script: [] },
    config: {
      mcpServers: {
        hostile: {
          command: process.execPath,
          args: [HOSTILE_APP_SERVER],
          env: { HOSTILE_TRACE: join(traceDir, 'trace.jsonl') },
        },
        everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
      },
    },
    viewport: VIEWPORT,
    connect: ['hostile', 'everything'],
  });
  // Console lines of the page and every frame in it (the frame logs what it ignored).
  session.page.on('console', (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
  await session.storeKey(session.page);
});
after(async () => {
  await session?.stop();
  await probe?.close();
  if (traceDir) rmSync(traceDir, { recursive: true, force: true });
});

const { shot, withEvidence } = e2eEvidence('mcp-apps-hostile', () => session);

/** Every audit record browser mode has written so far (its data folder sits beside the config). */
function auditRecords(): { kind: string; serverId?: string; action: string; details?: unknown }[] {
  const dir = join(dirname(session!.mode.configPath), 'data', 'audit');
  const files = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  return files.flatMap((f) =>
    readFileSync(join(dir, f), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { kind: string; serverId?: string; action: string }),
  );
}

/** The audit records once `ready` holds (the log is written in batches). */
async function auditUntil(
  p: Page,
  ready: (text: string) => boolean,
): Promise<ReturnType<typeof auditRecords>> {
  const deadline = Date.now() + STEP;
  for (;;) {
    const records = auditRecords();
    if (ready(JSON.stringify(records)) || Date.now() > deadline) return records;
    await p.waitForTimeout(250);
  }
}

/** What reached the fixture server, one {tool, args} per call. */
function serverTrace(): { tool: string; args: unknown }[] {
  const path = join(traceDir, 'trace.jsonl');
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
  return lines.map((l) => JSON.parse(l) as { tool: string; args: unknown });
}

async function trustHostile(p: Page): Promise<void> {
  await p.getByTestId('nav-servers').click();
  await p.getByTestId('server-row-hostile').click();
  const details = p.getByTestId('server-details-hostile');
  await details.getByTestId('tab-info').click();
  const trust = details.getByRole('switch', { name: 'Trust hostile' });
  if (!(await trust.isChecked())) await trust.click();
  await details.locator('[data-testid="trust-switch-hostile"]:checked').waitFor({ timeout: STEP });
}

async function send(p: Page, message: string): Promise<void> {
  await p.getByTestId('chat-input').fill(message);
  await p.getByTestId('chat-input').press('Enter');
  await p.getByTestId('message-user').filter({ hasText: message }).waitFor({ timeout: STEP });
}

test(
  'a hostile view in chat fails at every escape, and the app stays usable',
  { timeout: 180_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, session?.page ?? null);
    if (!p || !session?.gemini || !probe) return;
    const gemini = session.gemini;
    const token = new URL(session.mode.url).hash.replace(/^#token=/, '');
    assert.ok(token.length >= 16, 'the session token is known to the test');

    await withEvidence(p, 'attack', async () => {
      // Trusted, so neither the model's call nor the view's own calls wait for an approval card.
      await trustHostile(p);
      await p.getByTestId('nav-chat').click();
      const addressBefore = p.url();
      const popups: Page[] = [];
      p.context().on('page', (opened) => popups.push(opened));

      gemini.enqueue(
        reply(functionCall(SHOW_VIEW_FOR_MODEL, { probeUrl: probe!.url, otherTool: 'echo' })),
        reply(text('Here is the view.')),
      );
      await send(p, 'show me the hostile view');
      await p.locator('[data-testid="tool-card"][data-status="done"]').waitFor({ timeout: STEP });
      const ready = p.locator('[data-testid="app-view"][data-state="ready"]').first();
      await ready.waitFor({ timeout: STEP });
      const outer = p.getByTestId('app-view-frame').first();
      assert.equal(await outer.getAttribute('title'), 'show-view view from hostile');

      const results: HostileResults = await readHostileResults(
        p.frameLocator('[data-testid="app-view-frame"]').first().frameLocator('#view'),
      );
      await shot(p, '01-attempts-done');

      // The view's own record: the browser stopped each escape, the host refused each call.
      assert.equal(results.initialize, 'ok');
      assertBrowserBlocked(results, probe!, token);
      assertProtocolRefused(results);
      assert.equal(results.otherServerTool.name, 'echo');

      // The host's side.
      assert.equal(p.url(), addressBefore, 'the app page never navigated');
      assert.equal(popups.length, 0, 'no popup page opened');
      const audit = await auditUntil(p, (s) => s.includes('rate_limited') && s.includes('app_call_refused'));
      const everythingCalls = audit.filter((r) => r.kind === 'tool-call' && r.serverId === 'everything');
      assert.deepEqual(everythingCalls, [], 'no tools/call reached server-everything');
      const refusals = audit.filter((r) => JSON.stringify(r).includes('app_call_refused'));
      assert.ok(
        refusals.some((r) => JSON.stringify(r).includes('model-only')),
        `the model-only call was refused as app_call_refused: ${JSON.stringify(refusals)}`,
      );
      assert.ok(
        audit.some((r) => JSON.stringify(r).includes('rate_limited')),
        'the loop hit the rate limit (audited)',
      );
      const trace = serverTrace();
      const count = (tool: string) => trace.filter((c) => c.tool === tool).length;
      assert.equal(count('show-view'), 1, 'the model called the view tool once');
      assert.equal(count('model-only'), 0, 'the model-only tool never ran');
      assert.equal(
        count('app-only'),
        1 + results.rateLimit.ok,
        'every app-only call the view saw succeed reached the server, and no refused one did',
      );
      const ignoredLines = [...consoleLines, ...audit.map((r) => JSON.stringify(r))];
      assert.ok(
        ignoredLines.some((l) =>
          /malformed|ignoring non-json-rpc|failed to parse message|invalid json-?rpc/i.test(l),
        ),
        `the malformed messages were logged: ${consoleLines.slice(-20).join(' | ')}`,
      );

      // Still usable: the chat answers, and the view is still there.
      await p.getByTestId('chat-send').waitFor({ timeout: STEP });
      gemini.enqueue(reply(text('Still here.')));
      await send(p, 'are you still there?');
      await p.getByTestId('assistant-text').filter({ hasText: 'Still here.' }).waitFor({ timeout: STEP });
      await ready.waitFor({ timeout: STEP });
      await shot(p, '02-still-usable');
    });
  },
);
