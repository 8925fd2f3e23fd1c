/**
 * The `mcp-desk` CLI as a person or script runs it: real process, real servers, exit codes
 * (0 ok, 1 failed, 2 usage), JSON on stdout, one line on stderr for a failure. Run from
 * source with tsx so no build is needed; MCP_DESK_DATA_DIR keeps it off the real profile.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, type CliRun } from '../helpers/cli-runner.js';
import { after, before, describe, it } from 'node:test';
import { CleanupStack, nodeServer, SERVERS, tempDir } from '../helpers/host-harness.js';

type Run = CliRun;

describe('mcp-desk CLI', { timeout: 180_000 }, () => {
  const stack = new CleanupStack();
  let dataDir: string;
  let config: string;
  let allowed: string;

  before(async () => {
    const dir = await tempDir(stack);
    dataDir = join(dir, 'data');
    allowed = join(dir, 'allowed');
    await mkdir(allowed, { recursive: true });
    await writeFile(join(allowed, 'a.txt'), 'inside');
    await writeFile(join(dir, 'outside.txt'), 'outside');
    config = join(dir, 'servers.json');
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: {
          every: nodeServer(SERVERS.everything, ['stdio']),
          fs: nodeServer(SERVERS.filesystem, [allowed]),
        },
      }),
    );
  });
  after(() => stack.run());

  const cli = (...args: string[]): Promise<Run> => runCli(args, { MCP_DESK_DATA_DIR: dataDir });

  function json<T>(run: Run): T {
    assert.equal(run.code, 0, `exit ${run.code}; stderr: ${run.stderr}`);
    return JSON.parse(run.stdout) as T;
  }

  /** A failure must be exactly one line on stderr, prefixed with the program name. */
  function oneLine(run: Run): string {
    const lines = run.stderr.split('\n').filter(Boolean);
    assert.equal(lines.length, 1, `stderr: ${JSON.stringify(run.stderr)}`);
    assert.match(lines[0], /^mcp-desk: /);
    return lines[0];
  }

  type ServerRow = { name: string; state: string; transport: string; era?: string; tools: number };

  it('servers --json, with options before or after the command', async () => {
    const [before, afterCmd] = await Promise.all([
      cli('--config', config, 'servers', '--json'),
      cli('servers', '--json', '--config', config),
    ]);
    for (const run of [before, afterCmd]) {
      const rows = json<ServerRow[]>(run);
      assert.deepEqual(rows.map((r) => r.name).sort(), ['every', 'fs']);
      for (const r of rows) {
        assert.equal(r.state, 'connected', JSON.stringify(r));
        assert.equal(r.transport, 'stdio');
        assert.ok(r.tools > 0);
      }
      assert.equal(rows.find((r) => r.name === 'every')?.era, 'legacy');
    }
    // The era cache lands in the data dir the environment named, nowhere else.
    assert.ok(existsSync(join(dataDir, 'era-verdicts.json')));
  });

  it('tools --json lists {server, name, description, fingerprint, pin, warnings}', async () => {
    const rows = json<{ server: string; name: string; description: string }[]>(
      await cli('tools', '--json', '--config', config),
    );
    const echo = rows.find((r) => r.server === 'every' && r.name === 'echo');
    assert.ok(echo, 'every/echo listed');
    assert.equal(typeof echo.description, 'string');
    assert.ok(rows.some((r) => r.server === 'fs' && r.name === 'read_text_file'));
    for (const r of rows)
      assert.deepEqual(Object.keys(r).sort(), [
        'description',
        'fingerprint',
        'name',
        'pin',
        'server',
        'warnings',
      ]);
  });

  it('call prints the result as JSON and exits 0', async () => {
    const result = json<{ content: { type: string; text?: string }[] }>(
      await cli('--config', config, 'call', 'every', 'echo', '{"message":"hi"}', '--json'),
    );
    assert.deepEqual(result.content, [{ type: 'text', text: 'Echo: hi' }]);
    const plain = await cli('--config', config, 'call', 'every', 'echo', '{"message":"plain"}');
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(plain.stdout.trim(), 'Echo: plain');
  });

  it('a failing call (unknown tool, unknown server) exits 1 with one line on stderr', async () => {
    const [tool, server] = await Promise.all([
      cli('--config', config, 'call', 'every', 'no-such-tool', '{}'),
      cli('--config', config, 'call', 'nobody', 'echo', '{}'),
    ]);
    assert.equal(tool.code, 1);
    assert.match(oneLine(tool), /no-such-tool/);
    assert.equal(server.code, 1);
    assert.match(oneLine(server), /nobody/);
  });

  it('a tool result with isError exits 1', async () => {
    const run = await cli(
      '--config',
      config,
      'call',
      'fs',
      'read_text_file',
      JSON.stringify({ path: join(allowed, '..', 'outside.txt') }),
      '--json',
    );
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(oneLine(run), /returned an error/);
    assert.equal(
      (JSON.parse(run.stdout) as { isError?: boolean }).isError,
      true,
      'the result itself is still printed',
    );
    assert.doesNotMatch(run.stdout, /"outside"/);
  });

  it('bad usage exits 2', async () => {
    const runs = await Promise.all([
      cli('--config', config, 'call', 'every', 'echo', '{not json'),
      cli('--config', config, 'call', 'every', 'echo', '[1,2]'),
      cli('--config', config, 'call', 'every'),
      cli('--frobnicate'),
      cli('--config'),
    ]);
    for (const run of runs) {
      assert.equal(run.code, 2, `${run.stderr}`);
      oneLine(run);
    }
    assert.match(runs[0].stderr, /JSON/);
  });

  it('--help and --version exit 0; no command prints usage and exits 2', async () => {
    const [help, version, none] = await Promise.all([cli('--help'), cli('--version'), cli()]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: mcp-desk/);
    assert.equal(version.code, 0);
    assert.match(version.stdout.trim(), /^\d+\.\d+\.\d+$/);
    assert.equal(none.code, 2);
  });

  it('without --config it uses the data dir (empty there)', async () => {
    assert.deepEqual(json<unknown[]>(await cli('servers', '--json')), []);
  });
});
