/**
 * The pieces of the host's diagnostics that read other objects: the SDK's private request
 * maps (a renamed field must fail here, not read as zero), the broker's and the event bus's
 * counts, the call counter, and call errors that name their server.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { HostEvents } from '../../electron/host/host-events.js';
import { PendingBroker } from '../../electron/host/pending/pending-broker.js';
import { explainCallFailure } from '../../electron/host/servers/call-failure.js';
import { HostDiagnostics, isQuiet, sdkInFlight } from '../../electron/host/servers/host-diagnostics.js';
import { HostFailure, toHostError } from '../../electron/host/util/errors.js';

describe('host diagnostics', () => {
  it("reads the SDK client's request bookkeeping (fails if the SDK renamed it)", () => {
    const client = new Client({ name: 'diag', version: '1.0.0' });
    assert.deepEqual(sdkInFlight(client), { requests: 0, timeouts: 0, progress: 0, serving: 0 });
  });

  it('counts queued and held pending requests per server, and back to zero', async () => {
    const events = new HostEvents();
    const broker = new PendingBroker(events, 60_000);
    const hold = broker.hold('a');
    const asked = broker.ask({ kind: 'tool-approval', serverId: 'b', tool: 't', args: {}, reason: 'r' });
    assert.deepEqual(broker.counts(), { queued: 1, held: 1, byServer: { a: 1, b: 1 } });
    hold.release();
    broker.cancelServer('b');
    assert.equal(await asked, 'cancelled');
    assert.deepEqual(broker.counts(), { queued: 0, held: 0, byServer: {} });
    broker.dispose();
  });

  it('counts event listeners per channel and catch-all', () => {
    const events = new HostEvents();
    const off = events.on('servers.changed', () => undefined);
    const offAny = events.onAny(() => undefined);
    assert.deepEqual(events.listenerCounts(), { byChannel: { 'servers.changed': 1 }, any: 1 });
    off();
    offAny();
    assert.deepEqual(events.listenerCounts(), { byChannel: {}, any: 0 });
  });

  it('counts tool calls while they run, failed ones included', async () => {
    const diag = new HostDiagnostics({ connections: () => [], events: new HostEvents() });
    let release!: () => void;
    const running = diag.track('s', () => new Promise<void>((r) => (release = r)));
    const failing = diag.track('s', () => Promise.reject(new Error('boom')));
    await assert.rejects(failing, /boom/);
    assert.equal((await diag.snapshot()).calls, 1);
    release();
    await running;
    const after = await diag.snapshot();
    assert.equal(after.calls, 0);
    assert.ok(isQuiet(after));
  });

  it("names the server and tool in the SDK's bare errors, and leaves named ones alone", () => {
    const call = { serverId: 'files', tool: 'read', timeoutMs: 1500, lastStderr: () => 'disk gone' };
    assert.deepEqual(
      toHostError(explainCallFailure(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'), call)),
      {
        code: 'connection_closed',
        message:
          'server "files" exited or closed its connection during the call to tool "read"; ' +
          'its last stderr line: "disk gone"',
      },
    );
    assert.deepEqual(
      toHostError(explainCallFailure(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out'), call)),
      { code: 'timeout', message: 'server "files" did not answer the call to tool "read" within 1.5 s' },
    );
    const own = new HostFailure('not_connected', 'server "files" is not connected (reconnecting)');
    assert.equal(explainCallFailure(own, call), own);
  });
});
