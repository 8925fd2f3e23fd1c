import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { isAlive, killProcessTree, listDescendants } from '../electron/host/connection/process-tree.js';

const GRANDCHILD_SERVER = fileURLToPath(new URL('./fixtures/grandchild-server.mjs', import.meta.url));
const HANG_SERVER = fileURLToPath(new URL('./fixtures/hang-server.mjs', import.meta.url));

interface PidFile {
  server: number;
  grandchild: number;
}

function isPidFile(value: unknown): value is PidFile {
  return (
    typeof value === 'object' &&
    value !== null &&
    'server' in value &&
    'grandchild' in value &&
    typeof value.server === 'number' &&
    typeof value.grandchild === 'number'
  );
}

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`Timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function readPidFile(path: string): Promise<PidFile | undefined> {
  try {
    const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
    return isPidFile(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

describe('process-tree', () => {
  const cleanups: Array<() => Promise<void>> = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) {
      await cleanup();
    }
  });

  it('kills a stdio server and the grandchild it spawned', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-desk-process-tree-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const pidFile = join(dir, 'pids.json');

    // stdin stays open (a pipe we never close) so the server keeps serving, as under a host.
    const server: ChildProcess = spawn(process.execPath, [GRANDCHILD_SERVER], {
      env: { ...process.env, PID_FILE: pidFile },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    let pids: PidFile | undefined = undefined;
    cleanups.push(async () => {
      // Last resort so a failing assertion never leaves processes behind.
      for (const pid of [pids?.grandchild, server.pid]) {
        if (pid !== undefined && isAlive(pid)) {
          process.kill(pid, 'SIGKILL');
        }
      }
    });

    pids = await waitFor('the pid file', () => readPidFile(pidFile));
    assert.equal(pids.server, server.pid);
    assert.ok(isAlive(pids.server), 'server is alive');
    assert.ok(isAlive(pids.grandchild), 'grandchild is alive');
    assert.ok(
      (await listDescendants(pids.server)).includes(pids.grandchild),
      'grandchild is a descendant of the server',
    );
    assert.ok((await listDescendants(process.pid)).includes(pids.grandchild), 'descendants are transitive');

    await killProcessTree(pids.server, { graceMs: 2000 });

    const { server: serverPid, grandchild } = pids;
    await waitFor(
      'both processes to die',
      () => (!isAlive(serverPid) && !isAlive(grandchild) ? true : undefined),
      5000,
    );
    assert.equal(isAlive(serverPid), false);
    assert.equal(isAlive(grandchild), false);
  });

  it('escalates to SIGKILL when a process ignores SIGTERM', async () => {
    const stubborn = spawn(process.execPath, [HANG_SERVER], {
      env: { ...process.env, HANG_STUBBORN: '1' },
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    const pid = stubborn.pid;
    assert.ok(pid !== undefined);
    cleanups.push(async () => {
      if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    });
    // Its SIGTERM handler is only installed once it has printed its banner.
    await new Promise((resolve) => stubborn.stderr?.once('data', resolve));

    await killProcessTree(pid, { graceMs: 200 });
    await waitFor('the stubborn process to die', () => (isAlive(pid) ? undefined : true), 3000);
  });

  it(
    'finds children whose command name contains spaces and parentheses',
    { skip: process.platform !== 'linux' && 'the /proc parser is Linux-only' },
    async () => {
      // process.title sets the kernel comm on Linux, which /proc/PID/stat shows inside (...).
      const odd = spawn(
        process.execPath,
        ['-e', 'process.title = "a) b (c) d"; console.log("ready"); setInterval(() => {}, 1000)'],
        {
          stdio: ['ignore', 'pipe', 'ignore'],
        },
      );
      const pid = odd.pid;
      assert.ok(pid !== undefined);
      cleanups.push(async () => {
        if (isAlive(pid)) process.kill(pid, 'SIGKILL');
      });
      await new Promise((resolve) => odd.stdout?.once('data', resolve));
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      assert.match(stat, /\(a\) b \(c\)/, 'the comm field really contains parentheses and spaces');

      assert.ok((await listDescendants(process.pid)).includes(pid));
      await killProcessTree(pid, { graceMs: 500 });
      await waitFor('the child to die', () => (isAlive(pid) ? undefined : true), 3000);
    },
  );

  it('does not throw for a pid that has already exited', async () => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    const pid = child.pid;
    assert.ok(pid !== undefined);
    await new Promise((resolve) => child.once('exit', resolve));
    // Let Node reap it so the pid no longer exists, not even as a zombie.
    await waitFor('the child to be reaped', () => (isAlive(pid) ? undefined : true));

    await killProcessTree(pid, { graceMs: 100 });
    assert.deepEqual(await listDescendants(pid), []);
    assert.equal(isAlive(pid), false);
  });

  it('rejects pids that would address a process group or the caller', async () => {
    await assert.rejects(killProcessTree(0), RangeError);
    await assert.rejects(killProcessTree(-1), RangeError);
    await assert.rejects(killProcessTree(process.pid), RangeError);
    assert.throws(() => isAlive(1.5), RangeError);
  });
});
