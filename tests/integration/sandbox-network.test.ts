/**
 * Network rules for sandboxed stdio servers, with real bubblewrap: a server whose rule allows
 * one loopback host reaches it through the host's proxy (plain HTTP and a CONNECT tunnel) and
 * is refused another, whose canary counts no connection; going around the proxy reaches
 * nothing, since the server's network namespace is empty; rule `none` has no proxy at all;
 * the unsandboxed control reaches both canaries directly (so the test can fail). Servers
 * Info's data (the summary) lists each destination with its verdict.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { systemSandboxDetector } from '../../electron/host/connection/sandbox/sandbox-detector.js';
import {
  CleanupStack,
  createTestHost,
  nodeServer,
  REPO_ROOT,
  summaryOf,
  textOf,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';
import { startCanary, type LoopbackCanary } from '../helpers/loopback-canary.js';

const PROBE = join(REPO_ROOT, 'tests/fixtures/net-probe-server.mjs');

function skipReason(): string | undefined {
  if (process.platform !== 'linux')
    return `network rules are enforced with bubblewrap on Linux (this is ${process.platform})`;
  const available = systemSandboxDetector.detect();
  return available.ok ? undefined : available.reason;
}
const skip = skipReason();
if (skip) console.log(`sandbox network tests skipped: ${skip}`);

describe(
  'network rules for sandboxed servers (bubblewrap + proxy)',
  { timeout: 120_000, skip: skip ?? false },
  () => {
    const stack = new CleanupStack();
    let t: TestHost;
    let allowed: LoopbackCanary;
    let refused: LoopbackCanary;

    before(async () => {
      allowed = await startCanary('allowed');
      refused = await startCanary('refused');
      stack.defer(() => allowed.close());
      stack.defer(() => refused.close());
      t = await createTestHost(stack, {
        servers: {
          listed: nodeServer(PROBE, [], { network: { allow: [`127.0.0.1:${allowed.port}`] } }),
          offline: nodeServer(PROBE, [], { sandbox: true, network: 'none' }),
          open: nodeServer(PROBE),
        },
      });
      await Promise.all(['listed', 'offline', 'open'].map((id) => waitForState(t.host, id, 'connected')));
    });
    after(() => stack.run());

    const call = async (id: string, tool: string, canary: LoopbackCanary) => {
      const r = await t.host.callTool(id, tool, { host: '127.0.0.1', port: canary.port });
      return { ok: r.isError !== true, text: textOf(r) };
    };

    it('control: unsandboxed, the server reaches both hosts directly', async () => {
      assert.deepEqual(await call('open', 'direct', allowed), { ok: true, text: 'connected' });
      assert.deepEqual(await call('open', 'direct', refused), { ok: true, text: 'connected' });
      await refused.reached(1); // the canary counts (the later "0 more" assertions can fail)
    });

    it('an allowlisted host is reached through the proxy; another is refused and never contacted', async () => {
      const before = refused.connections();
      assert.deepEqual(await call('listed', 'get', allowed), { ok: true, text: '200 allowed' });
      assert.deepEqual(await call('listed', 'tunnel', allowed), { ok: true, text: '200 allowed' });
      const get = await call('listed', 'get', refused);
      assert.equal(get.ok, false);
      assert.match(get.text, /^403 /);
      const tunnel = await call('listed', 'tunnel', refused);
      assert.equal(tunnel.ok, false);
      assert.match(tunnel.text, /^403 /);
      assert.equal(refused.connections(), before, 'the refused host saw no connection');
    });

    it('going around the proxy reaches nothing: the namespace has no network', async () => {
      const before = allowed.connections() + refused.connections();
      for (const canary of [allowed, refused]) {
        const r = await call('listed', 'direct', canary);
        assert.equal(r.ok, false);
        assert.match(r.text, /^ECONNREFUSED/);
      }
      assert.equal(allowed.connections() + refused.connections(), before);
    });

    it('rule none: no proxy, no network', async () => {
      const r = await call('offline', 'get', allowed);
      assert.equal(r.ok, false);
      assert.match(r.text, /no HTTP_PROXY/);
      assert.match((await call('offline', 'direct', allowed)).text, /^ECONNREFUSED/);
      assert.deepEqual(summaryOf(t.host, 'offline').network, { rule: 'none', hosts: [], destinations: [] });
    });

    it('the summary (Servers Info) lists what was tried, allowed and refused', () => {
      const s = summaryOf(t.host, 'listed');
      assert.deepEqual(s.sandbox, { kind: 'on', tool: 'bubblewrap', paths: 0, network: 'allow' });
      const net = s.network;
      assert.ok(net);
      assert.equal(net.rule, 'allow');
      assert.deepEqual(net.hosts, [`127.0.0.1:${allowed.port}`]);
      const seen = net.destinations.map((d) => ({
        host: d.host,
        port: d.port,
        allowed: d.allowed,
        count: d.count,
      }));
      assert.deepEqual(
        seen.sort((a, b) => a.port - b.port),
        [
          { host: '127.0.0.1', port: allowed.port, allowed: true, count: 2 },
          { host: '127.0.0.1', port: refused.port, allowed: false, count: 2 },
        ].sort((a, b) => a.port - b.port),
      );
      assert.equal(summaryOf(t.host, 'open').network, undefined);
    });
  },
);
