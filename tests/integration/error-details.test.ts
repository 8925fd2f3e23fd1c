// Structured error details end to end through the real router and host: a bad request names
// its fields in details.fields, and a server that cannot start carries the host's hint.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ServerState } from '../../shared/domain/server-state.js';
import { fieldErrorLines } from '../../renderer/host/errors.js';
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

  it('gives every form the field lines to show: a bad settings update names its field', async () => {
    const r = await t.router.handle('settings.update', { openaiBaseUrl: 'ftp://example.test', maxTurns: 0 });
    assert.ok(!r.ok, JSON.stringify(r));
    const lines = fieldErrorLines(parseHostError(JSON.parse(JSON.stringify(r.error))));
    assert.deepEqual(lines.map((l) => l.field).sort(), ['maxTurns', 'openaiBaseUrl']);
    assert.ok(
      lines.every((l) => l.message.length > 0),
      JSON.stringify(lines),
    );
  });

  it('puts the host-written hint on a failed server summary', async () => {
    await t.host.add('nocmd', { command: 'mcp-desk-no-such-command-xyz' });
    const state: ServerState = (await waitForState(t.host, 'nocmd', 'failed')).state;
    assert.ok(state.kind === 'failed');
    assert.equal(state.error.code, 'enoent');
    assert.match(state.error.details?.hint ?? '', /check the command or PATH/);
  });
});
