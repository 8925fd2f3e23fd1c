/**
 * PermissionsService over a real PolicyStore on disk: what it lists (config trust, granted
 * trust, stale records, sampling), that every change is published once, that trust written
 * into a config entry is taken back there, and that everything survives a restart of the store.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { PermissionsSnapshot } from '../../shared/domain/permissions.js';
import type { ServerConfig } from '../../shared/domain/server-config.js';
import type { ServerSummary } from '../../shared/domain/server-state.js';
import { MemoryAuditLog } from '../../electron/host/audit/audit-log.js';
import { launchKey } from '../../electron/host/config/launch-key.js';
import { HostEvents } from '../../electron/host/host-events.js';
import {
  PermissionsService,
  type PermissionServers,
} from '../../electron/host/policies/permissions-service.js';
import { PolicyStore } from '../../electron/host/policies/policy-store.js';
import { ToolPolicy } from '../../electron/host/policies/tool-policy.js';
import { SettingsStore } from '../../electron/host/stores/settings-store.js';
import { Redactor } from '../../electron/host/util/redact.js';

/** The registry's narrow port, over a plain map of configs (edits recorded). */
function servers(
  configs: Map<string, ServerConfig>,
  events: HostEvents,
): PermissionServers & { edits: string[] } {
  const edits: string[] = [];
  return {
    edits,
    list: () => [...configs.keys()].map((id) => ({ id }) as ServerSummary),
    serverConfig: (id) => configs.get(id),
    update: async (id, config) => {
      edits.push(id);
      configs.set(id, config);
      events.emit('servers.changed', []);
      return undefined;
    },
  };
}

async function open(dir: string, configs: Map<string, ServerConfig>) {
  const settings = await SettingsStore.open(join(dir, 'settings.json'));
  const store = await PolicyStore.open(settings.trustRecords, dir);
  const events = new HostEvents();
  const port = servers(configs, events);
  const audit = new MemoryAuditLog(new Redactor());
  const policy = new ToolPolicy(store.trust, (id) => configs.get(id));
  const service = new PermissionsService({ store, policy, servers: port, events, audit });
  const published: PermissionsSnapshot[] = [];
  events.on('permissions.changed', (list) => published.push(list));
  return { store, service, port, published, audit, policy, events };
}

test('list, revoke, trust and a restart of the store', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-desk-permissions-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const fs: ServerConfig = { command: 'node', args: ['fs.js'] };
  const configs = new Map<string, ServerConfig>([
    ['fs', fs],
    ['git', { command: 'node', args: ['git.js'], trust: 'trusted' }],
  ]);
  const a = await open(dir, configs);
  assert.deepEqual(a.service.list(), [
    { serverId: 'fs', configured: true, trust: { trusted: false }, tools: [] },
    { serverId: 'git', configured: true, trust: { trusted: true, source: 'config' }, tools: [] },
  ]);

  await a.policy.remember('always', 'fs', 'read_file', 'conv-1');
  await a.store.trust.allowAlways('gone', 'k-old', 'write');
  await a.store.sampling.setConsent('fs', 'always');
  await a.service.setTrust('fs', true);
  const fsEntry = a.service.list()[0];
  assert.equal(fsEntry?.trust.trusted, true);
  assert.equal(fsEntry?.trust.source, 'granted');
  assert.deepEqual(
    fsEntry?.tools.map(({ grantedAt: _at, ...e }) => e),
    [{ tool: 'read_file', conversationId: 'conv-1', applies: true }],
  );
  assert.equal(fsEntry?.sampling?.consent, 'always');
  assert.equal(
    a.service.list()[2]?.serverId,
    'gone',
    'a record of a server no longer configured is still listed',
  );
  assert.equal(a.service.list()[2]?.configured, false);
  assert.equal(a.published.length, 4, 'one change event per change');
  await a.store.flush();

  // A new store over the same files: everything is still there, with its time and conversation.
  const b = await open(dir, configs);
  assert.deepEqual(b.service.list(), a.service.list());
  assert.equal(b.published.length, 0);

  // A changed command: the records stay listed but no longer apply.
  configs.set('fs', { ...fs, args: ['fs.js', '--new'] });
  b.events.emit('servers.changed', []);
  const changed = b.service.list()[0];
  assert.equal(changed?.trust.trusted, false);
  assert.equal(changed?.trust.stale, true);
  assert.equal(changed?.tools[0]?.applies, false);
  assert.equal(b.published.length, 1, 'a config change that alters the list is published');
  b.events.emit('servers.changed', []);
  assert.equal(b.published.length, 1, 'one that does not is not');
  configs.set('fs', fs);

  await b.service.revoke({ serverId: 'fs', kind: 'tool', tool: 'read_file' });
  assert.equal(b.store.trust.isAlwaysAllowed('fs', launchKey(fs), 'read_file'), false);
  await b.service.revoke({ serverId: 'fs', kind: 'sampling' });
  assert.equal(b.store.sampling.get('fs').consent, 'ask');
  await b.service.revoke({ serverId: 'fs', kind: 'trust' });
  assert.deepEqual(b.service.list()[0], {
    serverId: 'fs',
    configured: true,
    trust: { trusted: false },
    tools: [],
  });

  // Trust from the config entry is taken back in the config.
  await b.service.setTrust('git', false);
  assert.deepEqual(b.port.edits, ['git']);
  assert.equal(configs.get('git')?.trust, undefined);
  assert.equal(b.service.list()[1]?.trust.trusted, false);

  await b.service.revokeServer('gone');
  assert.equal(b.service.list().length, 2);
  const revoked = (await b.audit.query({ kind: 'approval' })).map((r) => `${r.serverId}:${r.action}`);
  assert.ok(revoked.includes('fs:revoked') && revoked.includes('git:untrusted'), revoked.join(','));
  await b.store.flush();

  const c = await open(dir, configs);
  assert.deepEqual(c.service.list(), b.service.list(), 'revokes are on disk too');
  a.service.dispose();
  b.service.dispose();
  c.service.dispose();
});

test('removing a server forgets its records and its "for this chat" choices', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-desk-permissions-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const fs: ServerConfig = { command: 'node', args: ['fs.js'] };
  const configs = new Map<string, ServerConfig>([['fs', fs]]);
  const a = await open(dir, configs);
  const tool = { name: 'read_file', inputSchema: { type: 'object' as const } };
  await a.policy.remember('chat', 'fs', 'read_file', 'conv-1');
  await a.policy.remember('always', 'fs', 'write_file', 'conv-1');
  assert.equal(a.policy.decide('fs', tool, 'conv-1').allow, true);
  configs.delete('fs');
  await a.service.forgetServer('fs');
  assert.deepEqual(a.service.list(), []);
  configs.set('fs', fs);
  assert.equal(a.policy.decide('fs', tool, 'conv-1').allow, false, 'a new server of that name starts clean');
  await a.store.flush();
  const b = await open(dir, configs);
  assert.deepEqual(b.service.list()[0]?.tools, []);
  a.service.dispose();
  b.service.dispose();
});
