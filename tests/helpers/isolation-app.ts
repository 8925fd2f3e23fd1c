// The isolation tests' side of MCP Apps (issue 28): the vault fixture server (the victim), the
// hostile server's intruder view and what it recorded, opening a view through the chat with the
// fake Gemini, WebRTC canaries (a UDP and a TCP listener that count what reaches them), and a log
// of every response the sandbox origin sent.
import { createSocket } from 'node:dgram';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { functionCall, reply, text, type FakeGemini } from '../fixtures/fake-gemini.js';
import { REPO_ROOT } from './server-processes.js';

/** The vault fixture server (stdio): a benign App with a secret and an app-only transfer tool. */
export const VAULT_APP_SERVER = join(REPO_ROOT, 'tests/fixtures/vault-app-server.mjs');

const STEP = 30_000;

/** What the intruder view wrote into #results (see tests/fixtures/hostile-intruder-view.html). */
export interface IntruderResults {
  crossViewDom?: { frames: number; reads: string[]; secret: string | null };
  crossViewToolCall?: { attempts: string[] };
  forgedContext?: { attempts: string[] };
  borrowedCsp?: { throughOthers: string[]; ownRealm: string };
  sharedStorage?: { seen: unknown; secret: string | null };
  cookies?: { read: string; tossed: string[]; after: string };
  csplessPage?: { navigated: string[]; from404: string[] };
  webrtc?: { own: string; nested: string };
  focus?: string;
}

/** The outer frame of a tool's newest view, by the title the app gives it ("<tool> view from <server>"). */
export function viewFrame(p: Page, tool: string, server: string): FrameLocator {
  return p.frameLocator(`[data-testid="app-view-frame"][title="${tool} view from ${server}"]`).last();
}

/** Wait until the intruder has made its attempts, then read what it recorded. */
export async function readIntruderResults(p: Page, timeoutMs = 60_000): Promise<IntruderResults> {
  const pre = viewFrame(p, 'intrude', 'hostile').frameLocator('#view').locator('#results[data-done="true"]');
  await pre.waitFor({ state: 'attached', timeout: timeoutMs });
  return JSON.parse((await pre.textContent()) ?? '{}') as IntruderResults;
}

/** Turn a server's trust on in Servers › Info, so neither the model's nor its view's calls wait for approval. */
export async function trustServer(p: Page, id: string): Promise<void> {
  await p.getByTestId('nav-servers').click();
  await p.getByTestId(`server-row-${id}`).click();
  const details = p.getByTestId(`server-details-${id}`);
  await details.getByTestId('tab-info').click();
  const trust = details.getByRole('switch', { name: `Trust ${id}` });
  if (!(await trust.isChecked())) await trust.click();
  await details.locator(`[data-testid="trust-switch-${id}"]:checked`).waitFor({ timeout: STEP });
}

/** Send a chat message in the conversation shown and wait until it appears. */
export async function sendChat(p: Page, message: string): Promise<void> {
  await p.getByTestId('chat-input').fill(message);
  await p.getByTestId('chat-input').press('Enter');
  await p.getByTestId('message-user').filter({ hasText: message }).waitFor({ timeout: STEP });
}

/**
 * Have the fake model call `server`'s `tool` (a trusted server: no approval), and wait until the
 * view under its card is ready.
 */
export async function openViewThroughChat(
  p: Page,
  gemini: FakeGemini,
  server: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<void> {
  const views = p
    .locator(`[data-testid="app-view"][data-state="ready"]`)
    .filter({ has: p.locator(`[data-testid="app-view-frame"][title="${tool} view from ${server}"]`) });
  const before = await views.count();
  gemini.enqueue(reply(functionCall(`${server}__${tool}`, args)), reply(text(`Here is ${tool}.`)));
  await sendChat(p, `please show ${tool}`);
  await views.nth(before).waitFor({ timeout: STEP });
}

/** A STUN/TURN canary: a UDP and a TCP listener on loopback that count what reaches them. */
export interface RtcCanary {
  udpPort: number;
  tcpPort: number;
  /** Datagrams and TCP connections received so far. */
  hits(): { udp: number; tcp: number };
  close(): Promise<void>;
}

/** Start a WebRTC canary (no view may ever reach it where WebRTC is blocked). */
export async function startRtcCanary(): Promise<RtcCanary> {
  let udp = 0;
  let tcp = 0;
  const socket = createSocket('udp4');
  socket.on('message', () => (udp += 1));
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', () => r()));
  const server = createNetServer((s) => {
    tcp += 1;
    s.on('error', () => undefined);
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    udpPort: socket.address().port,
    tcpPort: (server.address() as AddressInfo).port,
    hits: () => ({ udp, tcp }),
    close: async () => {
      socket.close();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** One response the page received from a sandbox origin. */
export interface SandboxResponse {
  url: string;
  status: number;
  csp: string | undefined;
  clearSiteData: string | undefined;
}

/** Record every response the page gets from `isSandbox` URLs (views' proxy pages, scripts, errors). */
export function logSandboxResponses(p: Page, isSandbox: (url: string) => boolean): SandboxResponse[] {
  const seen: SandboxResponse[] = [];
  p.on('response', (res) => {
    if (!isSandbox(res.url())) return;
    // allHeaders(): headers() leaves out what Chromium reports separately (Clear-Site-Data).
    void res.allHeaders().then((headers) =>
      seen.push({
        url: res.url(),
        status: res.status(),
        csp: headers['content-security-policy'],
        clearSiteData: headers['clear-site-data'],
      }),
    );
  });
  return seen;
}
