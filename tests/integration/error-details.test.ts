// Structured error details end to end through the real router and host: a bad request names
// its fields in details.fields, and a server that cannot start carries the host's hint.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ServerState } from '../../shared/domain/server-state.js';
import { parseHostError } from '../../shared/ipc/host-error.js';
import { CleanupStack, createTestHost, waitForState, type TestHost } from '../helpers/host-harness.js';

describe('error details as data', { timeout: 60_000 }, () => {
  const stack = new CleanupStack();
  let t: TestHost;

  before(async () => {
    t = await createTestHost(stack);
  });
  after(() => stack.run());

  it('sends field errors of an invalid request as details.fields', async () => {
    const r = await t.router.handle('servers.add', { name: '', config: { command: '' } });
    assert.ok(!r.ok, JSON.stringify(r));
    const e = parseHostError(JSON.parse(JSON.stringify(r.error)));
    assert.equal(e.code, 'invalid_request');
    assert.ok(e.details?.fields?.['config.command'], JSON.stringify(e));
    assert.ok(e.details?.fields?.name, JSON.stringify(e));
  });

  it('puts the host-written hint on a failed server summary', async () => {
    await t.host.add('nocmd', { command: 'mcp-desk-no-such-command-xyz' });
    const state: ServerState = (await waitForState(t.host, 'nocmd', 'failed')).state;
    assert.ok(state.kind === 'failed');
    assert.equal(state.error.code, 'enoent');
    assert.match(state.error.details?.hint ?? '', /check the command or PATH/);
  });
});
