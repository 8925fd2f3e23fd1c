/**
 * MCP Apps on the command line: `tools --json` marks tools with a view and their visibility,
 * and `app SERVER TOOL ARGS --out DIR` writes the view's HTML, the CSP its sandbox would
 * apply and the tool result, with one clear line when the tool has no view or does not exist.
 * Real processes: the system-monitor example from npm and our visibility fixture.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AppCommandOutput } from '../../electron/headless/cli-app.js';
import type { ToolRow } from '../../electron/headless/cli-output.js';
import { runCli, type CliRun } from '../helpers/cli-runner.js';
import { appServer, CleanupStack, nodeServer, REPO_ROOT, tempDir } from '../helpers/host-harness.js';

describe('mcp-desk CLI and MCP Apps', { timeout: 180_000 }, () => {
  const stack = new CleanupStack();
  let dir: string;
  let config: string;

  before(async () => {
    dir = await tempDir(stack);
    config = join(dir, 'servers.json');
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: {
          monitor: appServer('systemMonitor'),
          vis: nodeServer(join(REPO_ROOT, 'tests/fixtures/app-visibility-server.mjs')),
        },
      }),
    );
  });
  after(() => stack.run());

  const cli = (...args: string[]): Promise<CliRun> =>
    runCli([...args, '--config', config], { MCP_DESK_DATA_DIR: join(dir, 'data') });

  function oneLine(run: CliRun): string {
    const lines = run.stderr.split('\n').filter(Boolean);
    assert.equal(lines.length, 1, `stderr: ${JSON.stringify(run.stderr)}`);
    return lines[0];
  }

  it('tools --json marks tools with a view and their visibility', async () => {
    const run = await cli('tools', '--json');
    assert.equal(run.code, 0, run.stderr);
    const rows = JSON.parse(run.stdout) as ToolRow[];
    const find = (server: string, name: string) => rows.find((r) => r.server === server && r.name === name);
    assert.deepEqual(find('monitor', 'get-system-info')?.ui, {
      resourceUri: 'ui://system-monitor/mcp-app.html',
      visibility: ['model', 'app'],
    });
    assert.deepEqual(find('monitor', 'poll-system-stats')?.ui, { visibility: ['app'] });
    assert.deepEqual(find('vis', 'model-only')?.ui?.visibility, ['model']);
    assert.deepEqual(find('vis', 'app-only')?.ui?.visibility, ['app']);
    const echo = find('vis', 'echo');
    assert.ok(echo && !('ui' in echo), 'a plain tool keeps its three fields');
  });

  it('app writes the view, its CSP and the result', async () => {
    const out = join(dir, 'panel');
    const run = await cli('app', 'vis', 'show-panel', '{"label":"hello"}', '--out', out, '--json');
    assert.equal(run.code, 0, run.stderr);
    const summary = JSON.parse(run.stdout) as AppCommandOutput;
    assert.equal(summary.resourceUri, 'ui://visibility/panel.html');
    const html = await readFile(join(out, 'view.html'), 'utf8');
    assert.match(html, /visibility panel/);
    const csp = (await readFile(join(out, 'csp.txt'), 'utf8')).trim();
    assert.equal(csp, summary.cspApplied);
    assert.match(csp, /connect-src [^;]*https:\/\/api\.example\.com/, 'the declared origin is allowed');
    assert.match(csp, /object-src 'none'/);
    const result = JSON.parse(await readFile(join(out, 'result.json'), 'utf8')) as {
      content: { text: string }[];
      structuredContent: unknown;
    };
    assert.equal(result.content[0]?.text, 'panel shown: hello');
    assert.deepEqual(result.structuredContent, { label: 'hello' });
  });

  it('app on an example server from npm: the spec default CSP when nothing is declared', async () => {
    const out = join(dir, 'monitor');
    const run = await cli('app', 'monitor', 'get-system-info', '--out', out);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /wrote .*view\.html/);
    assert.match(await readFile(join(out, 'view.html'), 'utf8'), /<html/i);
    assert.match(await readFile(join(out, 'csp.txt'), 'utf8'), /default-src 'none'/);
    assert.ok(existsSync(join(out, 'result.json')));
  });

  it('app refuses a tool without a view, an unknown tool and a missing --out, writing nothing', async () => {
    const out = join(dir, 'never');
    const [noView, unknown, usage] = await Promise.all([
      cli('app', 'vis', 'echo', '{"message":"x"}', '--out', out),
      cli('app', 'vis', 'nope', '--out', out),
      cli('app', 'vis', 'show-panel'),
    ]);
    assert.equal(noView.code, 1);
    assert.match(oneLine(noView), /^mcp-desk: "echo" on "vis" has no interactive view/);
    assert.equal(unknown.code, 1);
    assert.match(oneLine(unknown), /has no tool "nope"/);
    assert.equal(usage.code, 2);
    assert.match(oneLine(usage), /--out DIR/);
    assert.ok(!existsSync(out), 'nothing was written');
  });
});
