/**
 * No orphans: a stdio server that spawns its own child (as npx, uvx and shell wrappers do)
 * must leave no process behind when the host removes, disables, restarts or disposes it,
 * when it exits on stdin EOF before its child, when it is killed from outside, or when it
 * crashes by itself after double-forking a daemon.
 * Each server gets a unique marker in its environment; children inherit it, so a /proc scan
 * finds every process it ever started, including the era probe's throwaway sibling.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isAlive } from '../../electron/host/connection/process-tree.js';
import type { ServerConfig } from '../../shared/domain/server-config.js';
import {
  CleanupStack,
  createTestHost,
  nodeServer,
  pidsWithEnv,
  SERVERS,
  tempDir,
  textOf,
  waitAllDead,
  waitFor,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';

const LINUX = process.platform === 'linux';

interface Pids {
  server: number;
  grandchild: number;
}

/** A grandchild-server config with its own PID_FILE and marker. */
function grandchildConfig(
  dir: string,
  extraEnv: Record<string, string> = {},
): { config: ServerConfig; pidFile: string; marker: string } {
  const marker = `desk-it-${randomUUID()}`;
  const pidFile = join(dir, `${marker}.json`);
  const config = nodeServer(SERVERS.grandchild, [], {
    env: { PID_FILE: pidFile, DESK_IT_MARKER: marker, ...extraEnv },
  }) as ServerConfig;
  return { config, pidFile, marker };
}

async function readPids(pidFile: string): Promise<Pids> {
  return waitFor(`pids in ${pidFile}`, async () => {
    try {
      const v = JSON.parse(await readFile(pidFile, 'utf8')) as Partial<Pids>;
      return typeof v.server === 'number' && typeof v.grandchild === 'number'
        ? { server: v.server, grandchild: v.grandchild }
        : undefined;
    } catch {
      return undefined;
    }
  });
}

/** Everything the marker finds (Linux), or the pid file's two pids elsewhere. */
function family(marker: string, pids: Pids): number[] {
  return LINUX ? pidsWithEnv(marker) : [pids.server, pids.grandchild].filter((p) => isAlive(p));
}

/** Assert that nothing of this server is alive, right now: stop() promises the tree is gone. */
function assertGone(marker: string, pids: Pids, when: string): void {
  const left = family(marker, pids);
  assert.deepEqual(left, [], `${when}: still alive: ${left.join(', ')}`);
  assert.equal(isAlive(pids.server), false, `${when}: server ${pids.server}`);
  assert.equal(isAlive(pids.grandchild), false, `${when}: grandchild ${pids.grandchild}`);
}

describe('process cleanup', { timeout: 180_000 }, () => {
  const stack = new CleanupStack();
  let t: TestHost;
  let dir: string;
  const markers: string[] = [];
  before(async () => {
    dir = await tempDir(stack);
    t = await createTestHost(stack, { servers: {} });
  });
  after(async () => {
    // Reap anything a failed assertion left, so one failure does not leak into other files.
    if (LINUX) for (const m of markers) for (const p of pidsWithEnv(m)) process.kill(p, 'SIGKILL');
    await stack.run();
  });

  async function start(
    id: string,
    extraEnv: Record<string, string> = {},
  ): Promise<{ pids: Pids; marker: string }> {
    const g = grandchildConfig(dir, extraEnv);
    markers.push(g.marker);
    await t.host.add(id, g.config);
    await waitForState(t.host, id, 'connected');
    assert.equal(textOf(await t.host.callTool(id, 'ping', {})), 'pong');
    const pids = await readPids(g.pidFile);
    assert.ok(isAlive(pids.server) && isAlive(pids.grandchild), 'both processes run while connected');
    if (LINUX) {
      // Only the live server and its child: the era probe's sibling is reaped with its child (at
      // once, or, when its probe ran out of time on a loaded machine, once its late answer is in).
      await waitFor('only the session processes to remain', () => {
        const live = pidsWithEnv(g.marker).sort();
        return live.length === 2 ? live : undefined;
      }).catch(() =>
        assert.fail(
          `processes with the marker: ${pidsWithEnv(g.marker).join(', ')} (expected server ${pids.server} and grandchild ${pids.grandchild})`,
        ),
      );
      assert.deepEqual(pidsWithEnv(g.marker).sort(), [pids.server, pids.grandchild].sort());
    }
    return { pids, marker: g.marker };
  }

  it('remove() kills the server and its grandchild', async () => {
    const { pids, marker } = await start('gc-remove');
    await t.host.remove('gc-remove');
    assertGone(marker, pids, 'after remove');
  });

  it('disabling kills the tree; enabling starts a fresh one', async () => {
    const { pids, marker } = await start('gc-toggle');
    await t.host.setEnabled('gc-toggle', false);
    assertGone(marker, pids, 'after disable');
    await t.host.setEnabled('gc-toggle', true);
    await waitForState(t.host, 'gc-toggle', 'connected');
    assert.equal(textOf(await t.host.callTool('gc-toggle', 'ping', {})), 'pong');
    await t.host.remove('gc-toggle');
    if (LINUX) assert.deepEqual(pidsWithEnv(marker), []);
  });

  it('restart() leaves only the new tree', async () => {
    const { pids, marker } = await start('gc-restart');
    await t.host.restart('gc-restart');
    await waitForState(t.host, 'gc-restart', 'connected');
    assert.equal(isAlive(pids.server), false);
    assert.equal(isAlive(pids.grandchild), false);
    if (LINUX)
      await waitFor(
        'exactly the new server and grandchild',
        () => (pidsWithEnv(marker).length === 2 ? true : undefined),
        10_000,
      );
    await t.host.remove('gc-restart');
    if (LINUX) assert.deepEqual(pidsWithEnv(marker), []);
  });

  it('a server that exits on stdin EOF first still has its grandchild reaped', async () => {
    const { pids, marker } = await start('gc-eof', { EXIT_ON_STDIN_CLOSE: '1' });
    await t.host.remove('gc-eof');
    assertGone(marker, pids, 'after remove');
  });

  it('a server killed from outside: its orphan is reaped and the host reconnects', async () => {
    const { pids, marker } = await start('gc-killed');
    process.kill(pids.server, 'SIGKILL');
    await waitAllDead([pids.server, pids.grandchild], 15_000);
    await waitFor('a reconnect after the kill', () => {
      const s = t.host.list().find((x) => x.id === 'gc-killed');
      return s?.state.kind === 'connected' && isAlive(pids.server) === false ? true : undefined;
    });
    assert.equal(textOf(await t.host.callTool('gc-killed', 'ping', {})), 'pong');
    await t.host.remove('gc-killed');
    if (LINUX) assert.deepEqual(pidsWithEnv(marker), []);
  });

  it('a server that crashes on its own after double-forking a daemon: remove() waits until the daemon is gone', async () => {
    const daemonFile = join(dir, `daemon-${randomUUID()}.pid`);
    const { pids, marker } = await start('gc-crash', { DAEMON_PID_FILE: daemonFile });
    const error = await t.host.callTool('gc-crash', 'detach-and-crash', {}).then(
      () => assert.fail('the call should fail: the server exits'),
      (e: unknown) => e as Error,
    );
    assert.match(error.message, /exited or closed its connection during the call/);
    const daemon = Number((await readFile(daemonFile, 'utf8')).trim());
    assert.ok(daemon > 0 && daemon !== pids.server, 'the fixture wrote its daemon pid');
    // The daemon ignores SIGTERM: the sweep after the crash needs the 2 s grace and a SIGKILL.
    // remove() must not resolve while that is still under way (a CLI would exit and leave it).
    await t.host.remove('gc-crash');
    assert.equal(isAlive(daemon), false, `daemon ${daemon} is still alive after remove()`);
    assertGone(marker, pids, 'after remove');
  });

  it('removing a server that is still starting leaves nothing of it running', { skip: !LINUX }, async () => {
    // Never answers initialize, ignores stdin EOF and SIGTERM: only the tree kill stops it.
    const marker = `desk-it-${randomUUID()}`;
    markers.push(marker);
    await t.host.add(
      'starting',
      nodeServer(SERVERS.hang, [], { env: { HANG_STUBBORN: '1', DESK_IT_MARKER: marker } }) as ServerConfig,
    );
    await waitFor('the server process to start', () => (pidsWithEnv(marker).length > 0 ? true : undefined));
    assert.equal(t.host.list().find((s) => s.id === 'starting')?.state.kind, 'connecting');
    await t.host.remove('starting');
    assert.deepEqual(pidsWithEnv(marker), [], 'remove() resolves only once the starting server is gone');
  });

  it('dispose() kills every server tree', async () => {
    const own = await createTestHost(stack, { servers: {} });
    const started: { pids: Pids; marker: string }[] = [];
    for (const id of ['a', 'b']) {
      const g = grandchildConfig(dir);
      markers.push(g.marker);
      await own.host.add(id, g.config);
      await waitForState(own.host, id, 'connected');
      started.push({ pids: await readPids(g.pidFile), marker: g.marker });
    }
    await own.dispose();
    for (const s of started) assertGone(s.marker, s.pids, 'after dispose');
  });
});
