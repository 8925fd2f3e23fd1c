/**
 * `mcp-desk audit-tools [--json]` (issue 15 item 6): exit 1 and a report when a server offers
 * poisoned-looking or shadowing tools (the poisoned fixture next to server-everything), exit 0
 * over server-everything alone. Runs the CLI from source; MCP_DESK_DATA_DIR keeps it off the
 * real profile.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ToolAudit } from '../../electron/headless/cli-audit-tools.js';
import { runCli } from '../helpers/cli-runner.js';
import { CleanupStack, nodeServer, REPO_ROOT, SERVERS, tempDir } from '../helpers/host-harness.js';

const POISONED = join(REPO_ROOT, 'tests/fixtures/poisoned-tools-server.mjs');

describe('mcp-desk audit-tools', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  let dataDir: string;
  let poisoned: string;
  let clean: string;
  const cli = (...args: string[]) => runCli(args, { MCP_DESK_DATA_DIR: dataDir });

  before(async () => {
    const dir = await tempDir(stack);
    dataDir = join(dir, 'data');
    poisoned = join(dir, 'poisoned.json');
    clean = join(dir, 'clean.json');
    const everything = nodeServer(SERVERS.everything, ['stdio']);
    await writeFile(poisoned, JSON.stringify({ mcpServers: { everything, poisoned: nodeServer(POISONED) } }));
    await writeFile(clean, JSON.stringify({ mcpServers: { everything } }));
  });
  after(() => stack.run());

  it('exits 1 and lists poisoned and shadowing tools', async () => {
    const run = await cli('--config', poisoned, 'audit-tools');
    assert.equal(run.code, 1, run.stderr);
    for (const line of [
      'poisoned\tadd',
      'poisoned\tget_weather',
      'poisoned\tsend_report',
      'everything\techo',
    ])
      assert.ok(run.stdout.includes(line), `${line} in:\n${run.stdout}`);
    assert.match(run.stdout, /model-instructions: /);
    assert.match(run.stdout, /shadowing: /);
    // Hidden characters are spelt out, never printed raw to the terminal.
    assert.match(run.stdout, /\\u\{202e\}/);
    assert.doesNotMatch(run.stdout, /[\u202E\u200B]|[\u{E0000}-\u{E007F}]/u);
    assert.doesNotMatch(run.stdout, /poisoned\tping/);
    assert.match(run.stdout, /tools flagged\.$/m);
  });

  it('--json is machine-readable, with kinds, reasons and passages', async () => {
    const run = await cli('--config', poisoned, 'audit-tools', '--json');
    assert.equal(run.code, 1, run.stderr);
    const audit = JSON.parse(run.stdout) as ToolAudit;
    assert.ok(audit.checked >= 20);
    assert.deepEqual(audit.notConnected, []);
    const find = (server: string, name: string) =>
      audit.flagged.find((t) => t.server === server && t.name === name);
    const add = find('poisoned', 'add');
    assert.ok(add);
    assert.equal(add.changed, false);
    const orders = add.warnings.find((w) => w.kind === 'model-instructions');
    assert.ok(orders && orders.passages.length > 0);
    assert.match(
      orders.passages[0].text.slice(orders.passages[0].start, orders.passages[0].end),
      /IMPORTANT|Before using/i,
    );
    assert.deepEqual(
      find('everything', 'get-sum')?.warnings.map((w) => [w.kind, w.other?.serverId]),
      [['shadowing', 'poisoned']],
    );
    assert.equal(find('poisoned', 'ping'), undefined);
  });

  it('exits 0 over server-everything alone', async () => {
    const [plain, json] = await Promise.all([
      cli('--config', clean, 'audit-tools'),
      cli('--config', clean, 'audit-tools', '--json'),
    ]);
    assert.equal(plain.code, 0, plain.stdout + plain.stderr);
    assert.match(plain.stdout, /No changed, poisoned-looking or shadowing tools among \d+ checked\./);
    assert.equal(json.code, 0, json.stderr);
    const audit = JSON.parse(json.stdout) as ToolAudit;
    assert.deepEqual(audit.flagged, []);
    assert.ok(audit.checked >= 10);
  });

  it('is in the usage text', async () => {
    const run = await cli('--help');
    assert.match(run.stdout, /audit-tools/);
  });
});
