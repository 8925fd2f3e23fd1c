/**
 * The dry run before trust, end to end with real bubblewrap and strace: the "snooping" bundle's
 * server, at start, lists and reads ~/.ssh, writes into the home and its own folder, and
 * connects to a loopback canary. Its dry run (through the router, as the preview asks for it)
 * lists its tools, flags the poisoned one and the one shadowing an installed server's, and
 * reports every one of those attempts as denied; the canary counts no connection and nothing
 * is written outside the dry run's temporary folder. Installing it afterwards pins the tools
 * the dry run saw, and the installed (unsandboxed) server does reach the canary: the control
 * that shows the canary and the fixture work.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { systemSandboxDetector } from '../../electron/host/connection/sandbox/sandbox-detector.js';
import { traceAvailability } from '../../electron/host/connection/sandbox/syscall-trace.js';
import { MemorySecretStore } from '../../electron/host/stores/secret-store.js';
import type { RouteResult } from '../../electron/host/router.js';
import type { BundlePreview } from '../../shared/domain/bundles.js';
import type { DryRunReport } from '../../shared/domain/dry-run.js';
import {
  CleanupStack,
  createTestHost,
  nodeServer,
  REPO_ROOT,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';
import { startCanary, type LoopbackCanary } from '../helpers/loopback-canary.js';
import { buildSnoopingBundle, SNOOPING_BUNDLE } from '../helpers/snooping-bundle.js';
import { tempDir } from '../helpers/temp-dir.js';

function skipReason(): string | undefined {
  if (process.platform !== 'linux')
    return `the dry run records with bubblewrap and strace on Linux (this is ${process.platform})`;
  const sandbox = systemSandboxDetector.detect();
  if (!sandbox.ok) return sandbox.reason;
  const trace = traceAvailability();
  return trace.ok ? undefined : trace.reason;
}
const skip = skipReason();
if (skip) console.log(`dry-run tests skipped: ${skip}`);

/** Every file under `dir` with its content (to show that nothing changed there). */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const path = join(e.parentPath, e.name);
    out[path] = await readFile(path, 'utf8').catch(() => '<unreadable>');
  }
  return out;
}

function ok<T>(r: RouteResult): T {
  assert.ok(r.ok, `expected success, got ${JSON.stringify(r).slice(0, 500)}`);
  return r.value as T;
}

describe('dry run before trust (bubblewrap + strace)', { timeout: 180_000, skip: skip ?? false }, () => {
  const stack = new CleanupStack();
  let t: TestHost;
  let canary: LoopbackCanary;
  let home: string;
  let dataDir: string;
  let hostTmp: string;
  let preview: BundlePreview;
  let report: DryRunReport;
  let unchanged: { home: Record<string, string>; data: Record<string, string> };

  before(async () => {
    canary = await startCanary('canary');
    stack.defer(() => canary.close());
    const base = await realpath(await tempDir(stack, 'mcp-desk-dry-run-test-'));
    home = join(base, 'home');
    dataDir = join(base, 'data');
    // The installed (unsandboxed) control run writes its scratch file here, not into the shared /tmp.
    hostTmp = join(base, 'tmp');
    await mkdir(hostTmp);
    await mkdir(join(home, '.ssh'), { recursive: true });
    await writeFile(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY (test)');
    const file = await buildSnoopingBundle(join(base, 'build'), canary.port);
    assert.equal(existsSync('/tmp/scratch.txt'), false, 'a leftover /tmp/scratch.txt would hide a leak');
    t = await createTestHost(stack, {
      env: { ...process.env, HOME: home, TMPDIR: hostTmp },
      dataDir,
      secretStore: new MemorySecretStore(),
      servers: { probe: nodeServer(join(REPO_ROOT, 'tests/fixtures/path-probe-server.mjs')) },
    });
    await waitForState(t.host, 'probe', 'connected');
    preview = ok<BundlePreview>(await t.router.handle('bundles.inspect', { path: file }));
    unchanged = { home: await snapshot(home), data: await snapshot(join(dataDir, 'bundles')) };
    report = ok<DryRunReport>(
      await t.router.handle('dryRun.run', { source: 'bundle', stagingId: preview.stagingId }),
    );
  });
  after(() => stack.run());

  it('ran in the sandbox and listed the tools; the command is shown whole', () => {
    assert.deepEqual(report.sandbox, { kind: 'ran', tool: 'bubblewrap' });
    assert.equal(report.outcome.kind, 'listed', JSON.stringify(report.outcome));
    assert.deepEqual(report.tools.map((x) => x.name).sort(), ['read', 'weather']);
    assert.equal(report.serverName, preview.serverName);
    assert.equal(report.command, 'node');
    assert.deepEqual(report.args.slice(1), ['--verbose']);
    assert.match(report.args[0] ?? '', /server\/index\.mjs$/);
  });

  it('reports reading ~/.ssh and the canary connection as denied, and the refused writes', () => {
    assert.ok(report.attempts.recorded, JSON.stringify(report.attempts));
    const paths = report.attempts.paths;
    const has = (path: string, op: string, denied: string) =>
      paths.some((p) => p.path === path && p.op === op && p.denied === denied);
    assert.ok(has(join(home, '.ssh'), 'read', 'hidden'), JSON.stringify(paths, null, 1));
    assert.ok(has(join(home, '.ssh', 'id_ed25519'), 'read', 'hidden'), JSON.stringify(paths, null, 1));
    assert.ok(has(join(home, '.snooped'), 'write', 'read-only'), JSON.stringify(paths, null, 1));
    assert.ok(
      paths.some(
        (p) => p.path.endsWith('/server/dropped.txt') && p.op === 'write' && p.denied === 'read-only',
      ),
      JSON.stringify(paths, null, 1),
    );
    assert.ok(!paths.some((p) => p.path.startsWith('/tmp/scratch')), 'its own /tmp is allowed');
    assert.ok(
      report.attempts.connections.some(
        (c) => c.address === `127.0.0.1:${canary.port}` && c.family === 'ipv4',
      ),
      JSON.stringify(report.attempts.connections),
    );
  });

  it('the canary counts 0 connections, and nothing was written outside the temporary folder', async () => {
    assert.equal(canary.connections(), 0);
    assert.deepEqual(await snapshot(home), unchanged.home);
    assert.deepEqual(await snapshot(join(dataDir, 'bundles')), unchanged.data);
    assert.equal(existsSync('/tmp/scratch.txt'), false);
    assert.deepEqual(await readdir(hostTmp), []);
  });

  it('the integrity checks ran: a poisoned description, a tool shadowing an installed one', () => {
    const weather = report.tools.find((x) => x.name === 'weather');
    assert.ok(weather?.warnings.some((w) => w.kind === 'model-instructions' || w.kind === 'secret-access'));
    const read = report.tools.find((x) => x.name === 'read');
    assert.ok(
      read?.warnings.some((w) => w.kind === 'shadowing' && w.other?.serverId === 'probe'),
      JSON.stringify(read),
    );
  });

  it('the dry run is audited with what it tried', async () => {
    const records = await t.audit.query({ kind: 'dry-run' });
    const ran = records.find((r) => r.action === 'ran');
    assert.ok(ran, JSON.stringify(records));
    assert.ok((ran.details?.connections as string[]).includes(`127.0.0.1:${canary.port}`));
  });

  it('installing pins the definitions the dry run saw; the installed server (no sandbox) reaches the canary', async () => {
    const result = ok<{ serverId: string }>(
      await t.router.handle('bundles.install', { stagingId: preview.stagingId, values: {} }),
    );
    assert.equal(result.serverId, preview.serverName);
    const pinned = (await t.audit.query({ kind: 'dry-run' })).find((r) => r.action === 'pinned');
    assert.deepEqual((pinned?.details?.tools as string[]).sort(), ['read', 'weather']);
    await waitForState(t.host, result.serverId, 'connected');
    await canary.reached(1);
    const tools = t.host.catalog().tools.filter((x) => x.serverId === result.serverId);
    assert.deepEqual(
      tools.map((x) => x.trust?.pin),
      ['pinned', 'pinned'],
    );
    assert.equal(SNOOPING_BUNDLE, preview.name);
  });
});
