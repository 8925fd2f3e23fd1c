/**
 * `--root PATH` (repeatable, before or after the command) shares folders with servers for
 * one CLI run: server-everything's get-roots-list tool asks us roots/list and echoes them.
 */
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { cliWorkspace, runCli } from '../helpers/cli-runner.js';
import { CleanupStack, nodeServer, SERVERS } from '../helpers/host-harness.js';

describe('mcp-desk --root', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  let dataDir: string;
  let config: string;
  let rootA: string;
  let rootB: string;

  before(async () => {
    const ws = await cliWorkspace(stack, { every: nodeServer(SERVERS.everything, ['stdio']) });
    ({ config, dataDir } = ws);
    rootA = join(ws.dir, 'alpha');
    rootB = join(ws.dir, 'beta');
    await mkdir(rootA, { recursive: true });
    await mkdir(rootB, { recursive: true });
  });
  after(() => stack.run());

  it('roots/list answers with every --root of the run, options before and after the command', async () => {
    const run = await runCli(
      ['--root', rootA, '--config', config, 'call', 'every', 'get-roots-list', '{}', `--root=${rootB}`],
      { MCP_DESK_DATA_DIR: dataDir },
    );
    assert.equal(run.code, 0, `exit ${run.code}; stderr: ${run.stderr}`);
    assert.ok(run.stdout.includes(pathToFileURL(rootA).href), run.stdout);
    assert.ok(run.stdout.includes(pathToFileURL(rootB).href), run.stdout);
  });

  it('without --root, no folders are shared', async () => {
    const run = await runCli(['--config', config, 'call', 'every', 'get-roots-list', '{}'], {
      MCP_DESK_DATA_DIR: dataDir,
    });
    assert.equal(run.code, 0, `exit ${run.code}; stderr: ${run.stderr}`);
    assert.ok(!run.stdout.includes(pathToFileURL(rootA).href), run.stdout);
  });

  it('a bad --root is a usage error on one line', async () => {
    const run = await runCli(['--config', config, 'servers', '--root'], { MCP_DESK_DATA_DIR: dataDir });
    assert.equal(run.code, 2, run.stderr);
  });
});
