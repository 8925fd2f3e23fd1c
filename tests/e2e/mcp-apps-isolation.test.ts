// One MCP App view against another (issue 28), end to end in browser mode in real Chromium. A
// trusted "vault" App (tests/fixtures/vault-app-server.mjs) shows a secret, keeps it in its
// storage, declares one origin it may reach (the canary) and has an app-only `vault-transfer` tool;
// the hostile server's intruder view, opened beside it in the same chat, goes after it: its DOM,
// its sandbox proxy (a forged tools/call and a forged model context "from the vault"), its realm's
// fetch (the vault's CSP), shared storage, a CSP-less sandbox 404 page, and the cookies of other
// local services. One test per vector; each checks the attacker's own record AND the victim's side
// (the vault server's trace, the audit log, the next model request, the canary and the probe).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { reply, text } from '../fixtures/fake-gemini.js';
import { chromiumSkipReason, pageOrSkip } from '../helpers/chromium.js';
import { keychainSkipReason } from '../helpers/e2e-app.js';
import { e2eEvidence, startE2eSession, type E2eSession } from '../helpers/e2e-session.js';
import { HOSTILE_APP_SERVER, startProbeServer, type ProbeServer } from '../helpers/hostile-app.js';
import { waitFor } from '../helpers/wait.js';
import {
  logSandboxResponses,
  openViewThroughChat,
  readIntruderResults,
  sendChat,
  trustServer,
  VAULT_APP_SERVER,
  viewFrame,
  type IntruderResults,
  type SandboxResponse,
} from '../helpers/isolation-app.js';

const API_KEY = `e2e-${randomBytes(12).toString('hex')}`;
const SECRET = `VAULT-SECRET-${randomBytes(8).toString('hex')}`;
const LOCAL_SESSION = `sess-${randomBytes(8).toString('hex')}`;
const STEP = 30_000;
const skipReason = chromiumSkipReason ?? keychainSkipReason('the API key is kept in the OS keychain');
const BLOCKED = /^blocked: SecurityError/;

let session: E2eSession | null = null;
let probe: ProbeServer | null = null;
let canary: ProbeServer | null = null;
let traceDir = '';
let results: IntruderResults = {};
let nextModelRequest = '';
let sandboxResponses: SandboxResponse[] = [];
let frameSources: { vault: string; intruder: string } = { vault: '', intruder: '' };

const { withEvidence, shot } = e2eEvidence('mcp-apps-isolation', () => session);

before(async () => {
  if (skipReason) {
    console.log(`mcp-apps-isolation e2e skipped: ${skipReason}`);
    return;
  }
  probe = await startProbeServer();
  canary = await startProbeServer();
  traceDir = mkdtempSync(join(tmpdir(), 'mcp-desk-isolation-'));
  session = await startE2eSession({
    gemini: { apiKey: API_KEY, script: [] },
    config: {
      mcpServers: {
        vault: {
          command: process.execPath,
          args: [VAULT_APP_SERVER],
          env: {
            VAULT_SECRET: SECRET,
            VAULT_CONNECT: canary.origin,
            VAULT_TRACE: join(traceDir, 'vault.jsonl'),
          },
        },
        hostile: {
          command: process.execPath,
          args: [HOSTILE_APP_SERVER],
          env: { HOSTILE_TRACE: join(traceDir, 'hostile.jsonl') },
        },
      },
    },
    viewport: { width: 1300, height: 1400 },
    connect: ['vault', 'hostile'],
  });
  const p = session.page;
  const gemini = session.gemini!;
  const appOrigin = new URL(session.mode.url).origin;
  // Everything but the app's own origin and the test's listeners is a sandbox response.
  sandboxResponses = logSandboxResponses(p, (url) => {
    const origin = new URL(url).origin;
    return (
      origin !== appOrigin &&
      origin !== probe!.origin &&
      origin !== canary!.origin &&
      !url.startsWith('data:')
    );
  });
  await session.storeKey(p);
  // "Another local service" on 127.0.0.1 and on localhost has a session cookie.
  await p.context().addCookies([
    { name: 'local-session', value: LOCAL_SESSION, domain: '127.0.0.1', path: '/' },
    { name: 'local-session', value: LOCAL_SESSION, domain: 'localhost', path: '/' },
  ]);
  await withEvidence(p, 'setup', async () => {
    await trustServer(p, 'vault');
    await trustServer(p, 'hostile');
    await p.getByTestId('nav-chat').click();
    await openViewThroughChat(p, gemini, 'vault', 'open-vault', {});
    await viewFrame(p, 'open-vault', 'vault')
      .frameLocator('#view')
      .locator('#state[data-ready="true"]')
      .waitFor({ timeout: STEP });
    await openViewThroughChat(p, gemini, 'hostile', 'intrude', {
      mode: 'cross-view',
      probeUrl: probe!.url,
      canaryUrl: `${canary!.origin}/canary`,
    });
    frameSources = {
      vault: (await frameSrc(session!, 'open-vault', 'vault')) ?? '',
      intruder: (await frameSrc(session!, 'intrude', 'hostile')) ?? '',
    };
    results = await readIntruderResults(p);
    await shot(p, '01-attempts-done');
    // The next model turn: whatever context views reported goes into it.
    const before = gemini.generateRequests().length;
    gemini.enqueue(reply(text('Nothing to report.')));
    await sendChat(p, 'anything new from the views?');
    await p
      .getByTestId('assistant-text')
      .filter({ hasText: 'Nothing to report.' })
      .waitFor({ timeout: STEP });
    nextModelRequest = JSON.stringify(gemini.generateRequests().slice(before));
  });
});

after(async () => {
  await session?.stop();
  await probe?.close();
  await canary?.close();
  if (traceDir) rmSync(traceDir, { recursive: true, force: true });
});

async function frameSrc(s: E2eSession, tool: string, server: string): Promise<string | null> {
  return s.page
    .locator(`[data-testid="app-view-frame"][title="${tool} view from ${server}"]`)
    .getAttribute('src');
}

/** What reached the vault server, one {tool, args} per tools/call. */
function vaultTrace(): { tool: string; args: unknown }[] {
  const lines = readFileSync(join(traceDir, 'vault.jsonl'), 'utf8').split('\n').filter(Boolean);
  return lines.map((l) => JSON.parse(l) as { tool: string; args: unknown });
}

/** Every audit record browser mode has written so far. */
function auditText(): string {
  const dir = join(dirname(session!.mode.configPath), 'data', 'audit');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
}

/** GET `path` from the sandbox listener under `host`, as any page could. */
function sandboxGet(port: number, host: string, path: string) {
  return new Promise<{ status: number; csp: string | undefined }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      res.resume();
      const csp = res.headers['content-security-policy'];
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, csp: typeof csp === 'string' ? csp : undefined }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

test('each view runs on an origin of its own, named for its view id', (t) => {
  if (!pageOrSkip(t, skipReason, session?.page ?? null)) return;
  const vault = new URL(frameSources.vault);
  const intruder = new URL(frameSources.intruder);
  assert.notEqual(vault.origin, intruder.origin, 'the two views share no origin');
  for (const u of [vault, intruder]) {
    const id = /^\/view\/([0-9a-f]{32})$/.exec(u.pathname)?.[1];
    assert.ok(id, `a view page: ${u.href}`);
    assert.equal(u.hostname, `${id}.localhost`, 'the origin is named for the view id');
  }
});

test('a view cannot read another view’s DOM', (t) => {
  if (!pageOrSkip(t, skipReason, session?.page ?? null)) return;
  const r = results.crossViewDom;
  assert.ok(r && r.frames >= 1, `the vault frame was found: ${JSON.stringify(r)}`);
  for (const read of r.reads) assert.match(read, BLOCKED, read);
  assert.equal(r.secret, null);
  assert.ok(!JSON.stringify(results).includes(SECRET), 'the secret appears nowhere the intruder recorded');
});

test('a view cannot call another view’s app-only tool: the victim server never sees the call', (t) => {
  if (!pageOrSkip(t, skipReason, session?.page ?? null)) return;
  assert.deepEqual(
    vaultTrace().filter((c) => c.tool === 'vault-transfer'),
    [],
    'the vault server ran no transfer',
  );
  assert.ok(!auditText().includes('vault-transfer'), 'no transfer was audited, not even a refused one');
  for (const a of results.crossViewToolCall?.attempts ?? ['missing']) assert.match(a, BLOCKED, a);
});

test('a view cannot report model context as another view', (t) => {
  if (!pageOrSkip(t, skipReason, session?.page ?? null)) return;
  assert.ok(nextModelRequest.length > 0, 'the next model request was seen');
  assert.ok(!nextModelRequest.includes('FORGED-CONTEXT'), 'the forged context never reached the model');
  for (const a of results.forgedContext?.attempts ?? ['missing']) assert.match(a, BLOCKED, a);
});

test('a view cannot borrow another view’s CSP to reach an origin only that view declared', (t) => {
  if (!pageOrSkip(t, skipReason, session?.page ?? null)) return;
  const r = results.borrowedCsp;
  assert.ok(r, 'the attempt ran');
  assert.deepEqual(canary!.hits, [], 'nothing reached the origin only the vault declared');
  for (const a of r.throughOthers) assert.match(a, BLOCKED, a);
  assert.match(r.ownRealm, /^blocked: TypeError/, 'its own CSP does not allow the canary');
});

test('a view cannot read what another view keeps in storage', (t) => {
  if (!pageOrSkip(t, skipReason, session?.page ?? null)) return;
  const r = results.sharedStorage;
  assert.ok(r, 'the attempt ran');
  assert.equal(r.secret, null, `storage seen: ${JSON.stringify(r.seen)}`);
});

test('no sandbox response is a page without a strict CSP, and none can be turned into one', async (t) => {
  if (!pageOrSkip(t, skipReason, session?.page ?? null)) return;
  const r = results.csplessPage;
  assert.ok(r, 'the attempt ran');
  assert.deepEqual(probe!.hits, [], 'nothing reached the probe');
  for (const a of [...r.navigated, ...r.from404]) assert.match(a, BLOCKED, a);
  assert.ok(sandboxResponses.length > 0, 'sandbox responses were seen');
  for (const res of sandboxResponses)
    assert.match(
      res.csp ?? '',
      /frame-ancestors /,
      `${res.status} ${res.url} carries a CSP with frame-ancestors`,
    );
  // The 404 and refusal pages themselves, asked for directly.
  const vault = new URL(frameSources.vault);
  const port = Number(vault.port);
  for (const [host, path] of [
    [vault.host, '/no-such-page'],
    [vault.host, '/sandbox-proxy.js'],
    [`${'0'.repeat(32)}.localhost:${port}`, vault.pathname],
    [`127.0.0.1:${port}`, vault.pathname],
  ] as const) {
    const res = await sandboxGet(port, host, path);
    assert.match(res.csp ?? '', /default-src 'none'/, `${host}${path} (${res.status}) has a strict CSP`);
    assert.match(res.csp ?? '', /frame-ancestors /, `${host}${path} limits who may frame it`);
  }
});

test('a view can neither read another local service’s cookies nor plant one for it', async (t) => {
  const p = pageOrSkip(t, skipReason, session?.page ?? null);
  if (!p) return;
  const r = results.cookies;
  assert.ok(r, 'the attempt ran');
  const port = new URL(probe!.url).port;
  const sent = await p.context().cookies([`http://127.0.0.1:${port}/`, `http://localhost:${port}/`]);
  assert.deepEqual(
    sent.filter((c) => c.name.startsWith('tossed')).map((c) => `${c.name}@${c.domain}`),
    [],
    'no cookie the view set would be sent to another local service',
  );
  assert.ok(!r.read.includes(LOCAL_SESSION), `the view read: ${r.read}`);
});

test('a closed view takes its storage with it, and its origin answers nothing after', async (t) => {
  const p = pageOrSkip(t, skipReason, session?.page ?? null);
  if (!p) return;
  await withEvidence(p, 'close', async () => {
    // Leaving the chat closes its views.
    await p.getByTestId('nav-servers').click();
    for (const src of [frameSources.vault, frameSources.intruder]) {
      const forget = `${src}/forget`;
      await waitFor(`the app to load ${forget}`, () => sandboxResponses.find((r) => r.url === forget));
      const res = sandboxResponses.find((r) => r.url === forget)!;
      assert.equal(res.status, 200);
      assert.match(res.clearSiteData ?? '', /"storage"/, "the page clears the origin's storage");
      const u = new URL(src);
      await waitFor(`${u.host} to answer nothing`, async () =>
        (await sandboxGet(Number(u.port), u.host, u.pathname)).status === 421 ? true : undefined,
      );
    }
  });
});
