// WebRTC from an MCP App view (issue 28 §4), end to end in real Chromium. No CSP directive governs
// WebRTC, so a view that declared no origins can still send STUN over UDP and TURN over TCP to any
// host, carrying data in its usernames; and taking RTCPeerConnection out of its realm does not hold
// (a nested about:blank frame has it again). The hostile intruder view tries both, from its own
// realm and from such a nested frame, against a UDP and a TCP canary the test runs.
// - Browser mode cannot stop it, so every view's header says so (the canary's count is printed).
// - The desktop app stops it in the network (electron/main/webrtc-block.ts): the same WebRTC IP
//   handling policy and session proxy rules, given here to Chromium as switches, with the app's
//   own refusing proxy. Nothing reaches the canary; the relays die at the refusing proxy.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  startRefusingProxy,
  viewProxyConfig,
  WEBRTC_IP_POLICY,
  type RefusingProxy,
} from '../../electron/main/webrtc-block.js';
import { chromiumSkipReason, pageOrSkip } from '../helpers/chromium.js';
import { keychainSkipReason } from '../helpers/e2e-app.js';
import { e2eEvidence, startE2eSession, type E2eSession } from '../helpers/e2e-session.js';
import { HOSTILE_APP_SERVER } from '../helpers/hostile-app.js';
import {
  openViewThroughChat,
  readIntruderResults,
  startRtcCanary,
  trustServer,
  type IntruderResults,
  type RtcCanary,
} from '../helpers/isolation-app.js';
import { waitFor } from '../helpers/wait.js';

const skipReason = chromiumSkipReason ?? keychainSkipReason('the API key is kept in the OS keychain');

/** A session whose intruder view has made its WebRTC attempts against a fresh canary. */
function webRtcSession(
  name: string,
  chromiumArgs: (bridge: string) => string[],
  ready?: () => Promise<void>,
) {
  const state: { session: E2eSession | null; canary: RtcCanary | null; results: IntruderResults } = {
    session: null,
    canary: null,
    results: {},
  };
  before(async () => {
    if (skipReason) {
      console.log(`mcp-apps-webrtc e2e skipped: ${skipReason}`);
      return;
    }
    state.canary = await startRtcCanary();
    await ready?.();
    state.session = await startE2eSession({
      gemini: { apiKey: `e2e-${randomBytes(12).toString('hex')}`, script: [] },
      config: { mcpServers: { hostile: { command: process.execPath, args: [HOSTILE_APP_SERVER] } } },
      viewport: { width: 1300, height: 1000 },
      connect: ['hostile'],
      chromiumArgs: (mode) => chromiumArgs(new URL(mode.url).host),
    });
    const p = state.session.page;
    await state.session.storeKey(p);
    await e2eEvidence(`mcp-apps-webrtc-${name}`, () => state.session).withEvidence(p, 'setup', async () => {
      await trustServer(p, 'hostile');
      await p.getByTestId('nav-chat').click();
      await openViewThroughChat(p, state.session!.gemini!, 'hostile', 'intrude', {
        mode: 'webrtc',
        rtc: { udpPort: state.canary!.udpPort, tcpPort: state.canary!.tcpPort },
      });
      state.results = await readIntruderResults(p);
    });
  });
  after(async () => {
    await state.session?.stop();
    await state.canary?.close();
  });
  return state;
}

/** The view really tried, from its own realm and from a nested about:blank frame. */
function assertAttempted(results: IntruderResults): void {
  assert.equal(results.webrtc?.own, 'own: constructed', JSON.stringify(results.webrtc));
  assert.equal(results.webrtc?.nested, 'nested: constructed', JSON.stringify(results.webrtc));
}

describe('browser mode, where WebRTC cannot be blocked', () => {
  const s = webRtcSession('browser', () => []);

  test("every view's header says that it can open WebRTC connections past its declared sites", async (t) => {
    const p = pageOrSkip(t, skipReason, s.session?.page ?? null);
    if (!p) return;
    assertAttempted(s.results);
    const note = p.getByTestId('app-view-webrtc-note');
    await note.waitFor();
    assert.match((await note.textContent()) ?? '', /WebRTC connections to any host/);
    const reached = await waitFor(
      'the canary to hear from the view, or a few seconds to pass',
      async () => {
        const hits = s.canary!.hits();
        return hits.udp + hits.tcp > 0 ? hits : undefined;
      },
      5000,
    ).catch(() => s.canary!.hits());
    console.log(
      `browser mode: the WebRTC canary received ${reached.udp} UDP datagrams, ${reached.tcp} TCP connections`,
    );
  });
});

describe("with the desktop app's WebRTC rules", () => {
  let proxy: RefusingProxy | null = null;
  const s = webRtcSession(
    'desktop-rules',
    (bridge) => {
      // Browser mode's own bridge is a WebSocket on loopback, which Chromium sends to the https
      // proxy; the desktop app has none (it uses IPC), so here it passes like a declared host.
      const rules = viewProxyConfig(proxy!.port, [`ws://${bridge}`]);
      return [
        `--webrtc-ip-handling-policy=${WEBRTC_IP_POLICY}`,
        `--proxy-server=${rules.proxyRules}`,
        `--proxy-bypass-list=${rules.proxyBypassRules.replaceAll(',', ';')}`,
      ];
    },
    async () => {
      proxy = await startRefusingProxy();
    },
  );
  after(() => proxy?.close());

  test('no STUN or TURN from the view or its nested frame reaches anything; the relays die at the proxy', async (t) => {
    const p = pageOrSkip(t, skipReason, s.session?.page ?? null);
    if (!p) return;
    assertAttempted(s.results);
    // Each of the two peer connections dials its TURN-over-TCP relay through the proxy.
    await waitFor('both TURN relays to reach the refusing proxy', () =>
      proxy!.refused() >= 2 ? true : undefined,
    );
    assert.deepEqual(s.canary!.hits(), { udp: 0, tcp: 0 }, 'nothing reached the canary');
  });
});
