/**
 * A dry run where no sandbox exists (macOS without sandbox-exec rules we trust, Windows, a Linux
 * without bubblewrap): it says so, shows the command whole and the static checks, and starts
 * nothing. The detector is simulated here (the only way to have "no bubblewrap" on a machine
 * that has it); the server is the real snooping fixture, which writes into HOME the moment it
 * runs, so a silent unsandboxed start would leave that file behind.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runDry } from '../../electron/host/dry-run/dry-run-runner.js';
import { Redactor } from '../../electron/host/util/redact.js';
import { CleanupStack, REPO_ROOT } from '../helpers/host-harness.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('dry run without a sandbox', () => {
  const stack = new CleanupStack();
  after(() => stack.run());

  it('reports that no sandbox is here, keeps the static checks, and starts nothing', async () => {
    const home = join(await tempDir(stack, 'mcp-desk-dry-run-nosandbox-'), 'home');
    await mkdir(home);
    const config = {
      command: process.execPath,
      args: [join(REPO_ROOT, 'tests/fixtures/snooping-server.mjs'), '--token=${secret:TOKEN}'],
      env: { API_KEY: '${secret:KEY}' },
    };
    const { report, tools } = await runDry('snoop', config, {
      launch: {
        env: { ...process.env, HOME: home },
        redactor: new Redactor(),
        path: async () => process.env.PATH ?? '',
      },
      sandbox: { detect: () => ({ ok: false, reason: 'bubblewrap (bwrap) is not installed' }) },
    });
    assert.deepEqual(report.sandbox, { kind: 'unavailable', reason: 'bubblewrap (bwrap) is not installed' });
    assert.deepEqual(report.outcome, { kind: 'skipped' });
    assert.equal(report.attempts.recorded, false);
    assert.deepEqual(tools, []);
    // The command is shown whole, references unexpanded; env names but never values.
    assert.equal(report.command, process.execPath);
    assert.deepEqual(report.args, config.args);
    assert.deepEqual(report.envNames, ['API_KEY']);
    assert.ok(
      report.notes.some((n) => n.includes('environment variable')),
      JSON.stringify(report.notes),
    );
    assert.equal(existsSync(join(home, '.snooped')), false, 'the server must not have run');
  });
});
