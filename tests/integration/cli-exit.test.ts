/**
 * A one-shot CLI command stops its servers the way the SDK and the spec describe (close stdin,
 * a short wait, then the tree kill) and exits 0: by the time the process has exited, the server
 * and its grandchild are gone, whether the server exits on stdin EOF, ignores it, or ignores
 * SIGTERM too. Behaviour only: how fast this happens is the bench's `cli_exit_after_output_ms`.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isAlive } from '../../electron/host/connection/process-tree.js';
import { runCli } from '../helpers/cli-runner.js';
import { CleanupStack, nodeServer, pidsWithEnv, SERVERS, tempDir } from '../helpers/host-harness.js';

const LINUX = process.platform === 'linux';

interface Pids {
  server: number;
  grandchild: number;
}

describe('a one-shot CLI command leaves no server process behind', { timeout: 240_000 }, () => {
  const stack = new CleanupStack();
  const leftovers: number[] = [];
  let dir: string;
  before(async () => {
    dir = await tempDir(stack, 'mcp-desk-cli-exit-');
  });
  after(async () => {
    // Reap whatever a failed assertion left, so one failure does not leak into other files.
    for (const pid of leftovers) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    await stack.run();
  });

  const cases: { name: string; env: Record<string, string> }[] = [
    { name: 'a server that ignores stdin EOF', env: {} },
    {
      name: 'a server that exits on stdin EOF (orphaning its grandchild)',
      env: { EXIT_ON_STDIN_CLOSE: '1' },
    },
    { name: 'a server that ignores stdin EOF and SIGTERM', env: { IGNORE_SIGTERM: '1' } },
  ];

  for (const { name, env } of cases) {
    it(`${name}: call exits 0 and the server and its grandchild are gone`, async () => {
      const marker = `desk-cli-exit-${randomUUID()}`;
      const pidFile = join(dir, `${marker}.json`);
      const config = join(dir, `${marker}-servers.json`);
      await writeFile(
        config,
        JSON.stringify({
          mcpServers: {
            g: nodeServer(SERVERS.grandchild, [], {
              env: { PID_FILE: pidFile, DESK_IT_MARKER: marker, ...env },
            }),
          },
        }),
      );
      const run = await runCli(['--config', config, 'call', 'g', 'ping'], {
        MCP_DESK_DATA_DIR: join(dir, 'data'),
      });
      const pids = JSON.parse(await readFile(pidFile, 'utf8')) as Pids;
      leftovers.push(pids.server, pids.grandchild);
      assert.equal(run.code, 0, `stderr: ${run.stderr}`);
      assert.equal(run.stdout.trim(), 'pong');
      // Right at exit, no waiting: the CLI exits only once the whole tree is gone.
      assert.equal(isAlive(pids.server), false, `server ${pids.server} outlived the CLI`);
      assert.equal(isAlive(pids.grandchild), false, `grandchild ${pids.grandchild} outlived the CLI`);
      if (LINUX) assert.deepEqual(pidsWithEnv(marker), [], 'no process the server started is left');
    });
  }
});
