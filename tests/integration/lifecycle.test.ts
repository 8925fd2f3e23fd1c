/**
 * The connection state machine against real failing servers: crash and reconnect, death
 * at start, a server that never answers, garbage on stdout, enable/disable/restart,
 * list_changed with paging, and the era-verdict cache surviving restarts and relaunches.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { launchKey } from '../../electron/host/config/launch-key.js';
import type { ServerConfig } from '../../shared/domain/server-config.js';
import {
  CleanupStack,
  connectedInfo,
  createTestHost,
  failedError,
  nodeServer,
  recordStates,
  rejection,
  SERVERS,
  summaryOf,
  tempDir,
  textOf,
  waitFor,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';
import { HOSTILE } from '../helpers/hostile-harness.js';

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
interface StoredVerdict {
  verdict?: { kind?: string };
  tentative?: boolean;
}

describe('era-verdict cache', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  after(() => stack.run());

  it('stores a modern verdict once and reuses it on restart and on the next launch', async () => {
    const dir = await tempDir(stack);
    const cachePath = join(dir, 'era-verdicts.json');
    const config = nodeServer(SERVERS.modern) as ServerConfig;
    const key = launchKey(config);
    const first = await createTestHost(stack, { servers: { modern: config }, eraCache: cachePath });
    // On a loaded machine the first probe may time out (the session then speaks 2025): its late
    // answer still lands in the cache, which is what this test is about.
    await waitForState(first.host, 'modern', 'connected');

    const stored = await waitFor(
      'a modern verdict in the cache file',
      async () => {
        const text = await readFile(cachePath, 'utf8').catch(() => '');
        const data = text ? (JSON.parse(text) as Record<string, StoredVerdict>) : {};
        return data[key]?.verdict?.kind === 'modern' ? text : undefined;
      },
      45_000,
    );

    // A restart connects with the cached verdict: no probe, so nothing new is written.
    await first.host.restart('modern');
    const again = connectedInfo(await waitForState(first.host, 'modern', 'connected'));
    assert.equal(again.protocolEra, 'modern');
    assert.equal(again.protocolVersion, '2026-07-28');
    await first.dispose();
    assert.equal(await readFile(cachePath, 'utf8'), stored, 'the verdict was reused, not re-probed');

    // A fresh host (the next launch) reads the same file.
    const second = await createTestHost(stack, { servers: { modern: config }, eraCache: cachePath });
    assert.equal(connectedInfo(await waitForState(second.host, 'modern', 'connected')).protocolEra, 'modern');
    assert.equal(textOf(await second.host.callTool('modern', 'whoami', {})), 'modern');
    await second.dispose();
    assert.equal(await readFile(cachePath, 'utf8'), stored);
  });

  it('hears a timed-out probe answer late: a dual-era server slow to start is recorded as modern', async () => {
    // Slower than the 3 s probe: the probe hears nothing in time and the SDK falls back to the
    // 2025 handshake (the dual-era fixture accepts it), but the probe's sibling keeps listening
    // off the connect's path and hears the server's DiscoverResult once it is up.
    const config = nodeServer(SERVERS.modern, [], { env: { MODERN_START_DELAY_MS: '4000' } }) as ServerConfig;
    const t = await createTestHost(stack, { servers: { slow: config }, eraCache: true });
    assert.equal(connectedInfo(await waitForState(t.host, 'slow', 'connected')).protocolEra, 'legacy');
    const path = join(t.dir, 'era-verdicts.json');
    // The sibling listens for up to 15 s after the probe's cap.
    const stored = await waitFor(
      'the late modern verdict in the cache file',
      async () => {
        const text = await readFile(path, 'utf8').catch(() => '');
        const data = text ? (JSON.parse(text) as Record<string, StoredVerdict>) : {};
        return data[launchKey(config)]?.verdict?.kind === 'modern' ? data[launchKey(config)] : undefined;
      },
      45_000,
    );
    assert.equal(stored.tentative, undefined, 'an answered probe is no tentative verdict');
    assert.ok(t.host.log('slow').some((l) => /answered late: this server speaks 2026-07-28/.test(l.text)));
    // The next start uses it: modern, with no probe and no fallback.
    await t.host.restart('slow');
    assert.equal(connectedInfo(await waitForState(t.host, 'slow', 'connected')).protocolEra, 'modern');
  });

  it('hears a timed-out probe answer late: a 2025 server slow to start is recorded as legacy, not tentative', async () => {
    // A loaded machine: the server reads stdin only after 4 s, so the 3 s probe times out; its
    // "method not found" arrives afterwards, while the session is already connecting.
    const config = nodeServer(HOSTILE, [], { env: { HOSTILE_START_DELAY_MS: '4000' } }) as ServerConfig;
    const t = await createTestHost(stack, { servers: { late: config }, eraCache: true });
    assert.equal(connectedInfo(await waitForState(t.host, 'late', 'connected')).protocolEra, 'legacy');
    const path = join(t.dir, 'era-verdicts.json');
    const stored = await waitFor('a legacy verdict in the cache file', async () => {
      const text = await readFile(path, 'utf8').catch(() => '');
      const data = text ? (JSON.parse(text) as Record<string, StoredVerdict>) : {};
      return data[launchKey(config)]?.verdict?.kind === 'legacy' ? data[launchKey(config)] : undefined;
    });
    // The tentative verdict of the handshake may land first; the late answer then makes it firm.
    await waitFor('the late answer to make the verdict firm', async () => {
      const data = JSON.parse(await readFile(path, 'utf8')) as Record<string, StoredVerdict>;
      return data[launchKey(config)]?.tentative === undefined ? true : undefined;
    });
    assert.equal(stored.verdict?.kind, 'legacy');
    assert.ok(t.host.log('late').some((l) => /answered late: this is a 2025 server/.test(l.text)));
  });

  it('caches a tentative legacy verdict when the probe hears only silence and the 2025 handshake works', async () => {
    const config = nodeServer(HOSTILE, [], { env: { HOSTILE_IGNORE_UNKNOWN: '1' } }) as ServerConfig;
    const t = await createTestHost(stack, { servers: { quiet: config }, eraCache: true });
    assert.equal(connectedInfo(await waitForState(t.host, 'quiet', 'connected')).protocolEra, 'legacy');
    const path = join(t.dir, 'era-verdicts.json');
    const stored = await waitFor('a tentative legacy verdict in the cache file', async () => {
      const text = await readFile(path, 'utf8').catch(() => '');
      const data = text ? (JSON.parse(text) as Record<string, StoredVerdict>) : {};
      return data[launchKey(config)]?.verdict?.kind === 'legacy' ? data[launchKey(config)] : undefined;
    });
    assert.equal(stored.tentative, true, JSON.stringify(stored));
    // The next start skips the probe: the first request the server sees is initialize.
    await t.host.restart('quiet');
    await waitForState(t.host, 'quiet', 'connected');
    const sent = t.host
      .trace('quiet')
      .filter((e) => e.direction === 'out')
      .map((e) => e.method);
    assert.equal(
      sent.find((m) => m !== undefined),
      'initialize',
      sent.join(','),
    );
  });

  it('stores a legacy verdict for a 2025 server', async () => {
    // server-everything is built on the 2025 SDK (the fixtures' v2 SDK serves both eras).
    const config = nodeServer(SERVERS.everything, ['stdio']) as ServerConfig;
    const t = await createTestHost(stack, { servers: { old: config }, eraCache: true });
    assert.equal(connectedInfo(await waitForState(t.host, 'old', 'connected')).protocolEra, 'legacy');
    const path = join(t.dir, 'era-verdicts.json');
    await waitFor('a legacy verdict in the cache file', async () => {
      const text = await readFile(path, 'utf8').catch(() => '');
      const data = text ? (JSON.parse(text) as Record<string, { verdict?: { kind?: string } }>) : {};
      return data[launchKey(config)]?.verdict?.kind === 'legacy' ? true : undefined;
    });
  });
});
