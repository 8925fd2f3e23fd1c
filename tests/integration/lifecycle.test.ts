/**
 * The connection state machine against real failing servers: crash and reconnect, death
 * at start, a server that never answers, garbage on stdout, enable/disable/restart,
 * list_changed with paging. The era-verdict cache: era-cache.test.ts.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import type { ServerConfig } from '../../shared/domain/server-config.js';
import {
  CleanupStack,
  createTestHost,
  failedError,
  nodeServer,
  recordStates,
  rejection,
  SERVERS,
  summaryOf,
  textOf,
  waitFor,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';

describe('connection lifecycle', { timeout: 180_000 }, () => {
  const stack = new CleanupStack();
  let t: TestHost;
  let states: ReturnType<typeof recordStates>;

  before(async () => {
    t = await createTestHost(stack, { servers: {} });
    states = recordStates(t, stack);
  });
  after(() => stack.run());

  it('reconnects after a crash mid-call, and the server works again', async () => {
    await t.host.add('crashy', nodeServer(SERVERS.crash) as ServerConfig);
    await waitForState(t.host, 'crashy', 'connected');
    assert.equal(textOf(await t.host.callTool('crashy', 'echo', { message: 'before' })), 'before');

    const err = await rejection(t.host.callTool('crashy', 'crash', {}));
    assert.equal(err.code, 'connection_closed', JSON.stringify(err));
    await waitFor('the crash to be noticed', () =>
      summaryOf(t.host, 'crashy').state.kind !== 'connected' ? true : undefined,
    );
    await waitForState(t.host, 'crashy', 'connected');
    // servers.changed is coalesced and trails the state itself by a few ms.
    const kinds = await waitFor('servers.changed to report the reconnect', () => {
      const k = states.get('crashy') ?? [];
      return k[k.length - 1] === 'connected' && k.includes('reconnecting') ? k : undefined;
    });
    const crashAt = kinds.lastIndexOf('reconnecting');
    assert.ok(crashAt > 0 && kinds[crashAt - 1] === 'connected', `states: ${kinds.join(' -> ')}`);
    assert.equal(textOf(await t.host.callTool('crashy', 'echo', { message: 'after' })), 'after');
    assert.ok(
      t.host.log('crashy').some((l) => /crashing mid-call/.test(l.text)),
      "the server's stderr is in its log",
    );
  });

  it('fails a server that dies at start, quoting its last words', async () => {
    await t.host.add('dies', nodeServer(SERVERS.crash, [], { env: { CRASH_ON_START: '1' } }) as ServerConfig);
    const error = failedError(await waitForState(t.host, 'dies', 'failed'));
    assert.match(error.message, /CRASH_ON_START=1, exiting before serving/);
    // A failed first connect is final: no retry loop behind the person's back.
    assert.deepEqual(
      states.get('dies')?.filter((k) => k === 'reconnecting'),
      [],
    );
  });

  it('fails a server that never answers with a timeout', async () => {
    await t.host.add('hangs', nodeServer(SERVERS.hang, [], { timeout: 800 }) as ServerConfig);
    const error = failedError(await waitForState(t.host, 'hangs', 'failed'));
    assert.equal(error.code, 'timeout', JSON.stringify(error));
    assert.match(error.message, /^no response within 800 ms \(/);
  });

  it('fails a command that does not exist with a hint', async () => {
    await t.host.add('nocmd', { command: 'mcp-desk-no-such-command-xyz' });
    const error = failedError(await waitForState(t.host, 'nocmd', 'failed'));
    assert.match(error.message, /not found|ENOENT/i, error.message);
  });

  it('skips garbage on stdout and stays connected', async () => {
    await t.host.add('garbage', nodeServer(SERVERS.garbage) as ServerConfig);
    await waitForState(t.host, 'garbage', 'connected');
    for (const m of ['one', 'two'])
      assert.equal(textOf(await t.host.callTool('garbage', 'echo', { message: m })), m);
    assert.equal(summaryOf(t.host, 'garbage').state.kind, 'connected');
  });

  it('walks every page of tools/list and refreshes on list_changed', async () => {
    await t.host.add('paged', nodeServer(SERVERS.paged) as ServerConfig);
    await waitForState(t.host, 'paged', 'connected');
    const names = () =>
      t.host
        .catalog()
        .tools.filter((x) => x.serverId === 'paged')
        .map((x) => x.tool.name)
        .sort();
    assert.deepEqual(names(), ['add-tool', 'alpha', 'beta', 'delta', 'echo', 'epsilon', 'gamma']);
    let announced = 0;
    const off = t.events.on('catalog.changed', (cat) => {
      if (cat.tools.some((x) => x.serverId === 'paged' && x.tool.name === 'extra')) announced++;
    });
    try {
      assert.equal(textOf(await t.host.callTool('paged', 'add-tool', {})), 'added extra');
      await waitFor('"extra" in the catalog', () => (names().includes('extra') ? true : undefined));
      await waitFor('a catalog.changed event with "extra"', () => (announced > 0 ? true : undefined));
    } finally {
      off();
    }
    assert.equal(names().length, 8);
    assert.equal(summaryOf(t.host, 'paged').counts.tools, 8);
    assert.equal(textOf(await t.host.callTool('paged', 'extra', {})), 'extra');
  });

  it('disables and re-enables a server, saving the choice', async () => {
    await t.host.add('toggle', nodeServer(SERVERS.crash) as ServerConfig);
    await waitForState(t.host, 'toggle', 'connected');
    const off = await t.host.setEnabled('toggle', false);
    assert.equal(off.state.kind, 'disabled');
    assert.ok(
      !t.host.catalog().tools.some((x) => x.serverId === 'toggle'),
      'a disabled server offers nothing',
    );
    assert.equal(
      (await rejection(t.host.callTool('toggle', 'echo', { message: 'x' }))).code,
      'not_connected',
    );
    assert.equal((await rejection(t.host.restart('toggle'))).code, 'server_disabled');
    const saved = JSON.parse(await readFile(t.configPath, 'utf8')) as {
      mcpServers: Record<string, { disabled?: boolean }>;
    };
    assert.equal(saved.mcpServers.toggle?.disabled, true);

    await t.host.setEnabled('toggle', true);
    await waitForState(t.host, 'toggle', 'connected');
    assert.equal(textOf(await t.host.callTool('toggle', 'echo', { message: 'back' })), 'back');
    const again = JSON.parse(await readFile(t.configPath, 'utf8')) as {
      mcpServers: Record<string, { disabled?: boolean }>;
    };
    assert.equal(again.mcpServers.toggle?.disabled, undefined);
  });

  it('restarts a connected server and applies an updated config', async () => {
    await t.host.add('restartable', nodeServer(SERVERS.crash) as ServerConfig);
    await waitForState(t.host, 'restartable', 'connected');
    const since = (summaryOf(t.host, 'restartable').state as { since: number }).since;
    await t.host.restart('restartable');
    const s = await waitForState(t.host, 'restartable', 'connected');
    assert.ok(s.state.kind === 'connected' && s.state.since >= since);
    assert.equal(textOf(await t.host.callTool('restartable', 'echo', { message: 'restarted' })), 'restarted');

    await t.host.update('restartable', { ...(nodeServer(SERVERS.paged) as ServerConfig) });
    await waitForState(t.host, 'restartable', 'connected');
    assert.ok(
      t.host.catalog().tools.some((x) => x.serverId === 'restartable' && x.tool.name === 'alpha'),
      'the new server is live',
    );
  });

  it('logs an edit as a restart, not as "state: disabled", and an edit of a disabled server as nothing', async () => {
    await t.host.add('edited', nodeServer(SERVERS.paged) as ServerConfig);
    await waitForState(t.host, 'edited', 'connected');
    const notes = () =>
      t.host
        .log('edited')
        .filter((l) => l.stream === 'host')
        .map((l) => l.text);
    await t.host.update('edited', { ...(nodeServer(SERVERS.paged) as ServerConfig) });
    await waitForState(t.host, 'edited', 'connected');
    assert.ok(notes().includes('restarting with the edited settings'), notes().join('\n'));
    assert.ok(!notes().includes('state: disabled'), `an edit disabled nothing:\n${notes().join('\n')}`);

    await t.host.setEnabled('edited', false);
    assert.equal(notes().filter((n) => n === 'state: disabled').length, 1, 'disabling is logged once');
    await t.host.update('edited', { ...(nodeServer(SERVERS.paged) as ServerConfig), disabled: true });
    assert.equal(
      notes().filter((n) => n === 'state: disabled').length,
      1,
      'editing a disabled server logs no state',
    );
  });

  it('logs a restart as "restarting", never as "state: disabled" (issue 24)', async () => {
    await t.host.add('relaunched', nodeServer(SERVERS.paged) as ServerConfig);
    await waitForState(t.host, 'relaunched', 'connected');
    const notes = () =>
      t.host
        .log('relaunched')
        .filter((l) => l.stream === 'host')
        .map((l) => l.text);
    await t.host.restart('relaunched');
    await waitForState(t.host, 'relaunched', 'connected');
    assert.ok(notes().includes('restarting'), notes().join('\n'));
    assert.ok(!notes().includes('state: disabled'), `a restart disabled nothing:\n${notes().join('\n')}`);
  });

  it('applies includeTools/excludeTools filters', async () => {
    await t.host.add('filtered', {
      ...(nodeServer(SERVERS.paged) as ServerConfig),
      excludeTools: ['alpha', 'beta'],
    });
    await waitForState(t.host, 'filtered', 'connected');
    const names = t.host
      .catalog()
      .tools.filter((x) => x.serverId === 'filtered')
      .map((x) => x.tool.name);
    assert.ok(
      !names.includes('alpha') && !names.includes('beta') && names.includes('gamma'),
      names.join(','),
    );
    assert.equal((await rejection(t.host.callTool('filtered', 'alpha', {}))).code, 'unknown_tool');
  });

  it('removes a server from the list, the catalog and the file', async () => {
    await t.host.remove('garbage');
    assert.ok(!t.host.list().some((s) => s.id === 'garbage'));
    assert.ok(!t.host.catalog().tools.some((x) => x.serverId === 'garbage'));
    const saved = JSON.parse(await readFile(t.configPath, 'utf8')) as { mcpServers: Record<string, unknown> };
    assert.equal(saved.mcpServers.garbage, undefined);
    assert.equal((await rejection(t.host.remove('garbage'))).code, 'unknown_server');
  });
});

/** One entry of era-verdicts.json. */
