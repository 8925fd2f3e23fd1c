/**
 * The policies area: one PolicyStore over the two files that hold its records (trust in
 * settings.json beside the chat settings, sampling consent in sampling.json), the one place
 * that cancels what a server waits on (the broker), and the one chat-settings schema.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { requestChannels } from '../../shared/ipc/contract.js';
import { HostEvents } from '../../electron/host/host-events.js';
import { PendingBroker } from '../../electron/host/pending/pending-broker.js';
import { PolicyStore } from '../../electron/host/policies/policy-store.js';
import { SettingsStore } from '../../electron/host/stores/settings-store.js';

test('PolicyStore: trust lands in settings.json beside the chat settings, consent in sampling.json', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-desk-policies-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const settings = await SettingsStore.open(join(dir, 'settings.json'));
  const policies = await PolicyStore.open(settings.trustRecords, dir);
  await settings.update({ maxTurns: 4 });
  await policies.trust.trustServer('git', 'g1');
  await policies.trust.allowAlways('fs', 'k1', 'read_file');
  await policies.sampling.setConsent('fs', 'always');
  await policies.flush();

  const onDisk = JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8')) as Record<string, unknown>;
  // Each record also says when it was granted (the Permissions view shows it); compared without it.
  const trust = onDisk.trust as Record<string, { grantedAt?: string }[]>;
  for (const list of Object.values(trust))
    for (const e of list) {
      assert.match(e.grantedAt ?? '', /^\d{4}-\d\d-\d\dT/);
      delete e.grantedAt;
    }
  assert.deepEqual(onDisk.trust, {
    alwaysAllowed: [{ serverId: 'fs', launchKey: 'k1', tool: 'read_file' }],
    trustedServers: [{ serverId: 'git', launchKey: 'g1' }],
  });
  assert.equal((onDisk.chat as { maxTurns: number }).maxTurns, 4, 'one file, one writer: nothing lost');
  assert.ok(
    settings.trustRecords.isTrustedServer('git', 'g1'),
    'the settings file and the store see the same records',
  );

  const reopened = await PolicyStore.open(
    (await SettingsStore.open(join(dir, 'settings.json'))).trustRecords,
    dir,
  );
  assert.ok(reopened.trust.isAlwaysAllowed('fs', 'k1', 'read_file'));
  assert.equal(reopened.sampling.get('fs').consent, 'always');
  await reopened.forgetServer('fs');
  await reopened.flush();
  assert.deepEqual(reopened.trust.snapshot().alwaysAllowed, []);
  assert.equal(reopened.sampling.get('fs').consent, 'ask');
  assert.ok(reopened.trust.isTrustedServer('git', 'g1'), 'other servers keep theirs');
});

test('the broker cancels everything one server waits on: approvals, reviews, forms and held requests', async () => {
  const broker = new PendingBroker(new HostEvents());
  const approval = broker.ask({
    kind: 'tool-approval',
    callId: 'c1',
    conversationId: 'conv',
    serverId: 'gone',
    tool: 't',
    inputSchema: { type: 'object' },
    args: {},
    reason: 'r',
  });
  const form = broker.request<'elicitation'>({
    kind: 'elicitation',
    serverId: 'gone',
    mode: 'url',
    message: 'm',
    warnings: [],
  });
  const other = broker.request<'elicitation'>({
    kind: 'elicitation',
    serverId: 'up',
    mode: 'url',
    message: 'm',
    warnings: [],
  });
  const hold = broker.hold('gone');
  assert.deepEqual(broker.waitingServers().sort(), ['gone', 'up']);

  broker.cancelServersExcept(new Set(['up']));
  assert.equal(await approval, 'cancelled');
  assert.equal(await form, 'cancelled');
  assert.equal(hold.signal.aborted, true, 'a request busy elsewhere (with the model) is aborted too');
  hold.release();
  assert.deepEqual(broker.waitingServers(), ['up']);
  assert.deepEqual(
    broker.list().map((r) => r.serverId),
    ['up'],
  );
  broker.dispose();
  assert.equal(await other, 'cancelled');
});

test('settings.update over the contract uses the store schema: model names are trimmed', () => {
  const parsed = requestChannels['settings.update'].request.parse({ geminiModel: '  gemini-2.5-pro ' });
  assert.deepEqual(parsed, { geminiModel: 'gemini-2.5-pro' });
  assert.equal(
    requestChannels['settings.update'].request.safeParse({ disabledServers: [''] }).success,
    false,
  );
});
