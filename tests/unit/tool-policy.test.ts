import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CatalogSnapshot } from '../../shared/domain/catalog.js';
import type { ServerConfig } from '../../shared/domain/server-config.js';
import { buildToolOffer } from '../../electron/host/chat/tool-offer.js';
import { ToolPolicy } from '../../electron/host/policies/tool-policy.js';
import { SettingsStore } from '../../electron/host/stores/settings-store.js';

const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  inputSchema: { type: 'object' },
  ...extra,
});

test('the offer skips disabled servers and tools, maps names back, and warns past the limit', () => {
  const catalog: CatalogSnapshot = {
    tools: [
      { serverId: 'a', tool: tool('one'), enabled: true },
      { serverId: 'a', tool: tool('two'), enabled: true },
      { serverId: 'b', tool: tool('three'), enabled: true },
      { serverId: 'c', tool: tool('four'), enabled: true },
      { serverId: 'c', tool: tool('five'), enabled: false },
    ],
    resources: [],
    templates: [],
    prompts: [],
  };
  const settings = { ...SettingsStore.inMemory().get(), disabledServers: ['b'], disabledTools: ['a/two'] };
  const plan = buildToolOffer(catalog, settings, 128);
  assert.deepEqual([...plan.byName.values()].map((o) => `${o.serverId}/${o.tool.name}`).sort(), [
    'a/one',
    'c/four',
  ]);
  assert.deepEqual(plan.warnings, []);
  for (const t of plan.tools) assert.match(t.name, /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/);

  const tight = buildToolOffer(catalog, { ...settings, disabledServers: [], disabledTools: [] }, 2);
  assert.equal(tight.tools.length, 2);
  assert.match(
    tight.warnings[0] ?? '',
    /4 tools are enabled but the model accepts at most 2: 2 were left out/,
  );
});

test('trust and "always allow" are keyed to the launch config: a changed command asks again', async () => {
  const settings = SettingsStore.inMemory();
  let config: ServerConfig = { command: 'node', args: ['server.js'] };
  const policy = new ToolPolicy(settings.trustRecords, () => config);
  const echo = tool('echo');
  assert.equal(policy.decide('s', echo).allow, false);
  await policy.remember('always', 's', 'echo');
  assert.deepEqual(policy.decide('s', echo), { allow: true, how: 'allow-listed' });
  assert.equal(policy.decide('s', tool('other')).allow, false, 'always-allow is per tool');
  config = { command: 'node', args: ['evil.js'] };
  const again = policy.decide('s', echo);
  assert.equal(again.allow, false, 'a changed command is a different server');

  await policy.remember('chat', 's', 'echo', 'conv1');
  assert.deepEqual(policy.decide('s', echo, 'conv1'), { allow: true, how: 'chat' });
  assert.equal(policy.decide('s', echo, 'conv2').allow, false);

  config = { command: 'node', args: ['x'], trust: 'trusted' };
  assert.deepEqual(policy.decide('s', tool('anything')), { allow: true, how: 'trusted' });
});

test('the approval reason names destructive and open-world hints', () => {
  const policy = new ToolPolicy(SettingsStore.inMemory().trustRecords, () => ({ url: 'https://x.test/mcp' }));
  const d = policy.decide(
    'remote',
    tool('rm', { annotations: { destructiveHint: true, openWorldHint: true } }),
  );
  assert.equal(d.allow, false);
  if (!d.allow)
    assert.match(
      d.reason,
      /not a trusted server and it may change or delete data and it reaches outside your machine/,
    );
});

test('arguments naming paths outside the shared folders always ask, even when trusted or remembered', async () => {
  const settings = SettingsStore.inMemory();
  let config: ServerConfig = { command: 'node', args: ['fs.js'], trust: 'trusted' };
  const policy = new ToolPolicy(settings.trustRecords, () => config);
  const read = tool('read_file');
  assert.deepEqual(policy.decide('fs', read, 'conv1', []), { allow: true, how: 'trusted' });
  const d = policy.decide('fs', read, 'conv1', ['/etc/passwd']);
  assert.equal(d.allow, false, 'a trusted server still asks');
  if (!d.allow) {
    assert.deepEqual(d.outsideRoots, ['/etc/passwd']);
    assert.match(d.reason, /outside your shared folders: \/etc\/passwd/);
  }

  // "always" and "for this chat" remember the tool for in-roots calls only.
  config = { command: 'node', args: ['fs.js'] };
  await policy.remember('always', 'fs', 'read_file');
  await policy.remember('chat', 'fs', 'write_file', 'conv1');
  assert.deepEqual(policy.decide('fs', read, 'conv1', []), { allow: true, how: 'allow-listed' });
  assert.equal(policy.decide('fs', read, 'conv1', ['~/secret']).allow, false);
  assert.deepEqual(policy.decide('fs', tool('write_file'), 'conv1', []), { allow: true, how: 'chat' });
  assert.equal(policy.decide('fs', tool('write_file'), 'conv1', ['/tmp/x']).allow, false);

  const many = policy.decide('fs', read, undefined, ['/a', '/b', '/c', '/d', '/e', '/f', '/g']);
  if (!many.allow) assert.match(many.reason, /\/e and 2 more\./);
});
