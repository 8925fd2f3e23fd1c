// The hostile MCP App fixture's side of the tests (issue 13, must-show 2): where the server is, a
// probe server that counts every request that reaches it, reading the view's #results through the
// frame, and the checks that the browser itself must enforce (the same under the stub parent of
// the fixture test and under the real sandbox in the e2e).
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { REPO_ROOT } from './server-processes.js';

/** The hostile app fixture server (stdio). */
export const HOSTILE_APP_SERVER = join(REPO_ROOT, 'tests/fixtures/hostile-app-server.mjs');

/** One JSON-RPC outcome as the view recorded it. */
export interface ViewReply {
  answered: boolean;
  error?: { code?: number; message?: string; data?: unknown };
  result?: { isError?: boolean; content?: unknown };
}

/** What the hostile view wrote into #results (see tests/fixtures/hostile-app-view.html). */
export interface HostileResults {
  initialize: unknown;
  toolInput: Record<string, unknown>;
  parentDom: Record<'top' | 'parentParent' | 'topHref' | 'topStorage' | 'proxy', string>;
  token: { found: Record<string, string>; tokenSeen: boolean };
  topNavigation: Record<'assign' | 'href' | 'replace', string>;
  popup: string;
  fetch: {
    probe: string;
    exampleCom: string;
    image: string;
    violations: { directive: string; blockedURI: string }[];
  };
  control: ViewReply;
  otherServerTool: { plain: ViewReply; prefixed: ViewReply; name: string };
  modelOnlyTool: ViewReply;
  bypassProxy: { answered: boolean; error?: string };
  rateLimit: { sent: number; ok: number; refused: number; noAnswer: number; errors: string[] };
  malformed: {
    posted: number;
    hugeId: ViewReply;
    unknownMethod: ViewReply;
    badParams: ViewReply;
    pingAfter: ViewReply;
  };
  strayMessages: string[];
  topAfter: string;
}

/** An HTTP server on 127.0.0.1 that answers 200 to anything and remembers every path it saw. */
export interface ProbeServer {
  /** `http://127.0.0.1:PORT/steal`: the URL the view is told to reach. */
  url: string;
  origin: string;
  hits: string[];
  close(): Promise<void>;
}

/** Start a probe server (the view must never reach it). */
export async function startProbeServer(): Promise<ProbeServer> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' });
    res.end('stolen');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/steal`,
    origin,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Wait until the view has made every attempt, then read what it recorded. */
export async function readHostileResults(view: FrameLocator, timeoutMs = 60_000): Promise<HostileResults> {
  const pre = view.locator('#results[data-done="true"]');
  await pre.waitFor({ state: 'attached', timeout: timeoutMs });
  return JSON.parse((await pre.textContent()) ?? '{}') as HostileResults;
}

const BLOCKED = /^blocked: /;

/**
 * What the browser stops whatever the host answers: the app's DOM, storage and address, the
 * token, top navigation, popups, and any network the CSP did not declare (each refusal must be a
 * CSP violation, so a machine without network cannot pass it by accident).
 */
export function assertBrowserBlocked(r: HostileResults, probe: ProbeServer, token: string): void {
  for (const key of ['top', 'parentParent', 'topHref', 'topStorage'] as const)
    assert.match(r.parentDom[key], /^blocked: SecurityError/, `parentDom.${key}: ${r.parentDom[key]}`);
  assert.match(r.topAfter, /^blocked: SecurityError/, 'the app DOM stays out of reach afterwards too');
  const dump = JSON.stringify(r);
  assert.ok(!dump.includes(token), 'the bridge token appears nowhere the view could read');
  assert.equal(r.token.tokenSeen, false, `loot: ${JSON.stringify(r.token.found)}`);
  for (const key of ['assign', 'href', 'replace'] as const)
    assert.match(r.topNavigation[key], BLOCKED, `topNavigation.${key}: ${r.topNavigation[key]}`);
  assert.equal(r.popup, 'blocked: window.open returned null');
  assert.match(r.fetch.probe, /^blocked: TypeError/, `fetch of the probe: ${r.fetch.probe}`);
  assert.match(r.fetch.exampleCom, /^blocked: TypeError/, `fetch of example.com: ${r.fetch.exampleCom}`);
  assert.equal(r.fetch.image, 'blocked: image error');
  const violated = (directive: string, uri: string) =>
    r.fetch.violations.some((v) => v.directive === directive && v.blockedURI.startsWith(uri));
  assert.ok(violated('connect-src', probe.origin), 'a CSP violation for the probe');
  assert.ok(violated('connect-src', 'https://example.com'), 'a CSP violation for example.com');
  assert.ok(violated('img-src', probe.origin), 'a CSP violation for the image');
  assert.deepEqual(probe.hits, [], 'nothing reached the probe server');
}

/** The protocol attempts, whoever answers: each refusal is an error, and the channel survives. */
export function assertProtocolRefused(r: HostileResults): void {
  assert.equal(r.control.answered && !r.control.error, true, `control call: ${JSON.stringify(r.control)}`);
  for (const [what, reply] of [
    ["another server's tool", r.otherServerTool.plain],
    ["another server's prefixed tool", r.otherServerTool.prefixed],
    ['the model-only tool', r.modelOnlyTool],
  ] as const) {
    assert.ok(reply.answered && (reply.error || reply.result?.isError), `${what}: ${JSON.stringify(reply)}`);
    assert.equal(reply.result?.isError ?? true, true, `${what} did not run`);
  }
  assert.equal(r.bypassProxy.answered, false, 'a message around the proxy is not answered');
  assert.equal(r.rateLimit.sent, 50);
  assert.ok(r.rateLimit.ok > 0, `some loop calls ran: ${JSON.stringify(r.rateLimit)}`);
  assert.ok(r.rateLimit.refused > 0, `some loop calls were refused: ${JSON.stringify(r.rateLimit)}`);
  assert.ok(
    r.rateLimit.errors.every((e) => /rate|too many/i.test(e)),
    `every refusal in the loop is a rate limit: ${r.rateLimit.errors.join(' | ')}`,
  );
  assert.ok(r.malformed.unknownMethod.error, 'an unknown method gets a JSON-RPC error');
  assert.equal(r.malformed.hugeId.result, undefined, 'a request with a huge id is not served');
  assert.ok(!r.malformed.badParams.result, 'a tools/call with a bad name is not served');
  assert.ok(r.malformed.pingAfter.answered && r.malformed.pingAfter.result, 'the channel still works');
}
