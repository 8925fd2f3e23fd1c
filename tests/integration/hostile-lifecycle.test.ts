/**
 * Hostile stdio servers, part 3: processes that die, stall or flood. A server that exits
 * mid-call, never answers a call, answers `initialize` late, never answers at all, writes
 * 100 MB to stderr or spawns detached grandchildren costs one failed call (or one failed
 * connect) with an error naming it; the healthy server beside it keeps working, and nothing
 * it started is left running.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isAlive } from '../../electron/host/connection/process-tree.js';
import { LIMITS } from '../../electron/host/util/limits.js';
import { runCli } from '../helpers/cli-runner.js';
import {
  assertHealthy,
  cleanUpAndAssertPeakRss,
  hostileServer,
  hostWithHealthy,
  processMarker,
} from '../helpers/hostile-harness.js';
import {
  CleanupStack,
  failedError,
  nodeServer,
  rejection,
  SERVERS,
  tempDir,
  textOf,
  waitAllDead,
  waitFor,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';

describe('hostile stdio servers: processes', { timeout: 150_000 }, () => {
  const stack = new CleanupStack();
  let t: TestHost;

  before(async () => {
    t = await hostWithHealthy(stack);
  });
  after(() => cleanUpAndAssertPeakRss(stack));

  it('names the server and quotes its last stderr line when it exits mid-call', async () => {
    await t.host.add('quitter', hostileServer());
    await waitForState(t.host, 'quitter', 'connected');
    const error = await rejection(t.host.callTool('quitter', 'exit', {}));
    assert.equal(error.code, 'connection_closed', JSON.stringify(error));
    assert.match(
      error.message,
      /server "quitter" exited or closed its connection during the call to tool "exit"/,
    );
    assert.match(error.message, /its last stderr line: "hostile-server: exiting mid-call on purpose/);
    await assertHealthy(t);
    // It comes back by itself (a crash after a good connection is retried).
    await waitForState(t.host, 'quitter', 'connected');
    await t.host.remove('quitter');
  });

  it('names the server and the tool when a call is never answered', async () => {
    await t.host.add('mute', hostileServer());
    await waitForState(t.host, 'mute', 'connected');
    const error = await rejection(t.host.callTool('mute', 'never', {}, { timeoutMs: 1500 }));
    assert.equal(error.code, 'timeout', JSON.stringify(error));
    assert.equal(error.message, 'server "mute" did not answer the call to tool "never" within 1.5 s');
    assert.equal(textOf(await t.host.callTool('mute', 'echo', { message: 'later' })), 'later');
    await assertHealthy(t);
    await t.host.remove('mute');
  });

  it('connects to a server that answers initialize after 8 s, or fails it clearly when that is too slow', async () => {
    await t.host.add('sleepy', hostileServer({ HOSTILE_INIT_DELAY_MS: '8000' }, { timeout: 20_000 }));
    await t.host.add('too-sleepy', hostileServer({ HOSTILE_INIT_DELAY_MS: '8000' }, { timeout: 2000 }));
    await assertHealthy(t);
    const error = failedError(await waitForState(t.host, 'too-sleepy', 'failed'));
    assert.equal(error.code, 'timeout', JSON.stringify(error));
    await waitForState(t.host, 'sleepy', 'connected', 30_000);
    assert.equal(textOf(await t.host.callTool('sleepy', 'echo', { message: 'awake' })), 'awake');
    await assertHealthy(t);
    await t.host.remove('sleepy');
    await t.host.remove('too-sleepy');
  });

  it('fails a server that never answers at all, and stops it', async () => {
    const marker = processMarker();
    await t.host.add('silent', hostileServer({ HOSTILE_SILENT: '1', ...marker.env }, { timeout: 1500 }));
    const error = failedError(await waitForState(t.host, 'silent', 'failed'));
    assert.equal(error.code, 'timeout', JSON.stringify(error));
    await assertHealthy(t);
    await t.host.remove('silent');
    await marker.assertNoneLeft();
  });

  it('the CLI gives up on a silent server within --timeout and exits, listing the healthy one', async () => {
    const dir = await tempDir(stack);
    const marker = processMarker();
    const config = join(dir, 'servers.json');
    const silent = hostileServer({ HOSTILE_SILENT: '1', ...marker.env });
    await writeFile(config, JSON.stringify({ mcpServers: { healthy: nodeServer(SERVERS.crash), silent } }));
    const run = await runCli(
      ['--config', config, 'tools', '--timeout', '10000'],
      { MCP_DESK_DATA_DIR: dir },
      30_000,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^healthy\techo\t/m);
    assert.match(run.stderr, /silent: /);
    await marker.assertNoneLeft();
  });

  it('the CLI says a server exited during tools/list, in `tools` and in `call`, quoting its stderr', async () => {
    const dir = await tempDir(stack);
    const config = join(dir, 'servers.json');
    const dies = hostileServer({ HOSTILE_EXIT_ON_LIST: '1' });
    await writeFile(config, JSON.stringify({ mcpServers: { healthy: nodeServer(SERVERS.crash), dies } }));
    const env = { MCP_DESK_DATA_DIR: dir };
    const tools = await runCli(['--config', config, 'tools'], env);
    assert.equal(tools.code, 0, tools.stderr);
    assert.match(tools.stdout, /^healthy\techo\t/m);
    assert.doesNotMatch(tools.stdout, /^dies\t/m);
    assert.match(
      tools.stderr,
      /^dies: failed: the server exited or closed its connection during tools\/list/m,
    );
    assert.match(tools.stderr, /hostile-server: exiting on tools\/list on purpose/);

    const call = await runCli(['--config', config, 'call', 'dies', 'echo', '{"message":"hi"}'], env);
    assert.notEqual(call.code, 0, call.stdout);
    assert.match(
      call.stderr,
      /server "dies" is not connected: failed: the server exited or closed its connection during tools\/list/,
    );
    assert.match(call.stderr, /exiting on tools\/list on purpose/);
    assert.doesNotMatch(call.stderr, /\(connected\)/);
  });

  it('leaves no process behind when a server crashes on its own after double-forking a daemon (CLI)', async () => {
    const dir = await tempDir(stack);
    const config = join(dir, 'servers.json');
    const pidFile = join(dir, 'daemon.pid');
    const server = nodeServer(SERVERS.grandchild, [], { env: { DAEMON_PID_FILE: pidFile } });
    await writeFile(config, JSON.stringify({ mcpServers: { gc: server } }));
    const run = await runCli(['--config', config, 'call', 'gc', 'detach-and-crash'], {
      MCP_DESK_DATA_DIR: dir,
    });
    assert.notEqual(run.code, 0, run.stdout);
    assert.match(run.stderr, /exited or closed its connection during the call to tool "detach-and-crash"/);
    const daemon = Number((await readFile(pidFile, 'utf8')).trim());
    assert.ok(daemon > 0, 'the fixture wrote its daemon pid');
    // The CLI has exited: whatever the crashed server left must already be gone, not merely dying
    // (the daemon ignores SIGTERM, so it takes the SIGKILL after the grace period).
    assert.equal(isAlive(daemon), false, `daemon ${daemon} outlived the CLI`);
  });

  it('keeps at most its cap of a 100 MB stderr flood and still quotes the last line', async () => {
    await t.host.add('loud', hostileServer());
    await waitForState(t.host, 'loud', 'connected');
    assert.equal(textOf(await t.host.callTool('loud', 'stderr-flood', { mb: 100 })), 'flooded');
    const log = t.host.log('loud');
    assert.ok(log.length <= LIMITS.logLines, `${log.length} lines kept`);
    const kept = log.reduce((n, l) => n + l.text.length, 0);
    assert.ok(kept <= LIMITS.logLines * (LIMITS.logLineChars + 1), `${kept} chars kept`);
    await waitFor('the flood summary', () =>
      t.host.log('loud').some((l) => /dropped [\d,]+ lines from this server/.test(l.text)) ? true : undefined,
    );
    await assertHealthy(t);
    await t.host.remove('loud');
  });

  it('leaves no detached grandchild behind (setsid, and double-forked)', async () => {
    const marker = processMarker();
    await t.host.add('spawner', hostileServer(marker.env));
    await waitForState(t.host, 'spawner', 'connected');
    const pids = JSON.parse(textOf(await t.host.callTool('spawner', 'spawn-detached', {}))) as {
      direct: number;
      doubleForked: number;
    };
    assert.ok(isAlive(pids.direct) && isAlive(pids.doubleForked), 'both grandchildren run');
    await assertHealthy(t);
    await t.host.remove('spawner');
    await waitAllDead([pids.direct, pids.doubleForked]);
    await marker.assertNoneLeft();
  });
});
