/**
 * `--dry-run` on `mcp-desk install` (a .mcpb file and an install link) and `mcp-desk import
 * --from HOST` (issue 23 item 5): each prints the dry run's findings (the sandbox, the command,
 * the tools, the refused ~/.ssh read and loopback connection) and installs nothing. The canary
 * counts 0 connections. Real CLI process, real bubblewrap and strace; skipped with the reason
 * where those are missing.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { systemSandboxDetector } from '../../electron/host/connection/sandbox/sandbox-detector.js';
import { traceAvailability } from '../../electron/host/connection/sandbox/syscall-trace.js';
import type { DryRunReport } from '../../shared/domain/dry-run.js';
import { runCli, type CliRun } from '../helpers/cli-runner.js';
import { claudeDesktopFile, writeFakeHome } from '../helpers/fake-hosts.js';
import { CleanupStack, REPO_ROOT, tempDir } from '../helpers/host-harness.js';
import { startCanary, type LoopbackCanary } from '../helpers/loopback-canary.js';
import { buildSnoopingBundle } from '../helpers/snooping-bundle.js';

function skipReason(): string | undefined {
  if (process.platform !== 'linux')
    return `the dry run records with bubblewrap and strace on Linux (this is ${process.platform})`;
  const sandbox = systemSandboxDetector.detect();
  if (!sandbox.ok) return sandbox.reason;
  const trace = traceAvailability();
  return trace.ok ? undefined : trace.reason;
}
const skip = skipReason();
if (skip) console.log(`CLI dry-run tests skipped: ${skip}`);

const FIXTURE = join(REPO_ROOT, 'tests/fixtures/snooping-server.mjs');

describe('mcp-desk install/import --dry-run', { timeout: 240_000, skip: skip ?? false }, () => {
  const stack = new CleanupStack();
  let canary: LoopbackCanary;
  let home: string;
  let dataDir: string;
  let bundle: string;
  const cli = (args: string[]): Promise<CliRun> =>
    runCli(
      args,
      {
        HOME: home,
        XDG_CONFIG_HOME: join(home, '.config'),
        MCP_DESK_DATA_DIR: dataDir,
        TMPDIR: join(home, 'tmp'),
      },
      120_000,
    );
  const configPath = () => join(dataDir, 'mcp-servers.json');
  const savedServers = () =>
    existsSync(configPath())
      ? Object.keys((JSON.parse(readFileSync(configPath(), 'utf8')) as { mcpServers: object }).mcpServers)
      : [];

  before(async () => {
    canary = await startCanary('cli-dry-run-canary');
    stack.defer(() => canary.close());
    const base = await tempDir(stack);
    home = join(base, 'home');
    dataDir = join(base, 'data');
    await mkdir(join(home, '.ssh'), { recursive: true });
    await mkdir(join(home, 'tmp'));
    await writeFile(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY (test)');
    writeFakeHome(home, [claudeDesktopFile({ snoop: { command: process.execPath, args: [FIXTURE] } })]);
    bundle = await buildSnoopingBundle(join(base, 'build'), canary.port);
  });
  after(() => stack.run());

  it('install FILE.mcpb --dry-run prints the findings and installs nothing', async () => {
    const r = await cli(['install', bundle, '--dry-run']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /ran in the bubblewrap sandbox/);
    assert.match(r.stdout, /^ {2}arg 2: --verbose$/m);
    assert.match(r.stdout, /^ {2}tool weather {2}\[.*model-instructions.*\]$/m);
    assert.ok(r.stdout.includes(`refused read ${join(home, '.ssh', 'id_ed25519')} (hidden)`), r.stdout);
    assert.ok(r.stdout.includes(`refused connect 127.0.0.1:${canary.port} (no network)`), r.stdout);
    assert.match(r.stdout, /^Not installed \(--dry-run\)\.$/m);
    assert.deepEqual(savedServers(), []);
    assert.equal(canary.connections(), 0);
  });

  it('install LINK --dry-run --json carries the report and installs nothing', async () => {
    const config = Buffer.from(JSON.stringify({ command: process.execPath, args: [FIXTURE] })).toString(
      'base64url',
    );
    const r = await cli([
      'install',
      `mcp-desk://install?name=linked&config=${config}`,
      '--dry-run',
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { installed: boolean; dryRun: DryRunReport };
    assert.equal(out.installed, false);
    assert.equal(out.dryRun.outcome.kind, 'listed');
    assert.deepEqual(out.dryRun.tools.map((t) => t.name).sort(), ['read', 'weather']);
    assert.deepEqual(savedServers(), []);
  });

  it('import --from claude-desktop --dry-run adds the findings and saves nothing', async () => {
    const r = await cli(['import', '--from', 'claude-desktop', '--dry-run']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^would add\tsnoop/m);
    assert.match(r.stdout, /^dry run of "snoop":$/m);
    assert.ok(r.stdout.includes(`refused read ${join(home, '.ssh', 'id_ed25519')} (hidden)`), r.stdout);
    assert.deepEqual(savedServers(), []);
  });
});
