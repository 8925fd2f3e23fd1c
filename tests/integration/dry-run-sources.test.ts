/**
 * The dry run from the other places a server arrives (the bundle path is dry-run.test.ts
 * and the e2e test): an install link's entry (the registry preview's path), a server found
 * in another app's config (an import candidate) and pasted JSON (`servers.import`). Both run the real snooping fixture under
 * bubblewrap and strace, report its ~/.ssh read as refused, get no secret (the literal token
 * the import moves to the keychain is left empty: the fixture would print it in a tool's
 * description), and installing or importing afterwards pins the tools the dry run saw (an
 * edited paste pins nothing from a run of its earlier text).
 */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { systemSandboxDetector } from '../../electron/host/connection/sandbox/sandbox-detector.js';
import { traceAvailability } from '../../electron/host/connection/sandbox/syscall-trace.js';
import { claudeDesktop } from '../../electron/host/importers/claude-desktop.js';
import { MemorySecretStore } from '../../electron/host/stores/secret-store.js';
import type { RouteResult } from '../../electron/host/router.js';
import type { DryRunReport } from '../../shared/domain/dry-run.js';
import type { InstallPreview } from '../../shared/domain/registry.js';
import type { ImportScanResult } from '../../shared/ipc/contract.js';
import { CleanupStack, createTestHost, REPO_ROOT, type TestHost } from '../helpers/host-harness.js';
import { CLAUDE_DESKTOP_PATH, writeFakeHome } from '../helpers/fake-hosts.js';
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
if (skip) console.log(`dry-run source tests skipped: ${skip}`);

const FIXTURE = join(REPO_ROOT, 'tests/fixtures/snooping-server.mjs');
const TOKEN = 'ghp_dryRunLiteralToken0123456789abcdefABCD';

function ok<T>(r: RouteResult): T {
  assert.ok(r.ok, `expected success, got ${JSON.stringify(r).slice(0, 500)}`);
  return r.value as T;
}

function b64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** The report says the server listed its tools and was refused ~/.ssh. */
function assertSnooped(report: DryRunReport, home: string): void {
  assert.deepEqual(report.sandbox, { kind: 'ran', tool: 'bubblewrap' });
  assert.equal(report.outcome.kind, 'listed', JSON.stringify(report.outcome));
  assert.deepEqual(report.tools.map((x) => x.name).sort(), ['read', 'weather']);
  assert.ok(report.attempts.recorded, JSON.stringify(report.attempts));
  assert.ok(
    report.attempts.paths.some((p) => p.path === join(home, '.ssh', 'id_ed25519') && p.denied === 'hidden'),
    JSON.stringify(report.attempts.paths),
  );
}

describe(
  'dry run of a link entry, an import candidate and pasted JSON',
  { timeout: 180_000, skip: skip ?? false },
  () => {
    const stack = new CleanupStack();
    let t: TestHost;
    let home: string;

    before(async () => {
      const base = await tempDir(stack, 'mcp-desk-dry-run-sources-');
      home = join(base, 'home');
      await mkdir(join(home, '.ssh'), { recursive: true });
      await writeFile(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY (test)');
      const hostTmp = join(base, 'tmp');
      await mkdir(hostTmp);
      writeFakeHome(home, [
        {
          path: CLAUDE_DESKTOP_PATH,
          text: JSON.stringify({
            mcpServers: {
              snoop: { command: process.execPath, args: [FIXTURE], env: { GITHUB_TOKEN: TOKEN } },
            },
          }),
        },
      ]);
      t = await createTestHost(stack, {
        env: { ...process.env, HOME: home, TMPDIR: hostTmp },
        dataDir: true,
        secretStore: new MemorySecretStore(),
        imports: { importers: [claudeDesktop], context: () => ({ platform: 'linux', home, env: {} }) },
      });
    });
    after(() => stack.run());

    it('an install link: dry-run from its preview, then installing pins what it saw', async () => {
      const link = `mcp-desk://install?name=linked&config=${b64url({ command: process.execPath, args: [FIXTURE] })}`;
      const preview = ok<InstallPreview>(await t.router.handle('deepLinks.preview', { url: link }));
      const req = { previewId: preview.previewId, option: 'entry', values: {}, name: 'linked' };
      const report = ok<DryRunReport>(await t.router.handle('dryRun.run', { source: 'registry', ...req }));
      assertSnooped(report, home);
      assert.deepEqual(report.args, [FIXTURE]);
      ok(await t.router.handle('registry.install', req));
      const pinned = (await t.audit.query({ kind: 'dry-run' })).filter((r) => r.action === 'pinned');
      assert.deepEqual(
        pinned.map((r) => [r.serverId, (r.details?.tools as string[]).sort()]),
        [['linked', ['read', 'weather']]],
      );
    });

    it('an import candidate: dry-run without its secret, then importing pins what it saw', async () => {
      const scan = ok<ImportScanResult>(await t.router.handle('imports.scan', {}));
      const candidate = scan.hosts
        .flatMap((h) => h.files.flatMap((f) => f.servers))
        .find((c) => c.name === 'snoop');
      assert.ok(candidate, JSON.stringify(scan.hosts));
      const report = ok<DryRunReport>(
        await t.router.handle('dryRun.run', { source: 'import', scanId: scan.scanId, key: candidate.key }),
      );
      assertSnooped(report, home);
      assert.deepEqual(report.envNames, ['GITHUB_TOKEN']);
      assert.ok(!JSON.stringify(report).includes(TOKEN), 'the literal secret never reaches the report');
      const weather = report.tools.find((x) => x.name === 'weather');
      assert.ok(!weather?.description?.includes(TOKEN), 'the server did not get the secret');
      const audit = JSON.stringify(await t.audit.query({ kind: 'dry-run' }));
      assert.ok(!audit.includes(TOKEN));
      ok(await t.router.handle('imports.apply', { scanId: scan.scanId, keys: [candidate.key] }));
      const pinned = (await t.audit.query({ kind: 'dry-run' })).filter((r) => r.action === 'pinned');
      assert.ok(
        pinned.some((r) => r.serverId === 'snoop'),
        JSON.stringify(pinned),
      );
    });

    it('pasted JSON: dry-run one of its servers without its secret, then importing the same paste pins what it saw', async () => {
      const json = JSON.stringify({
        mcpServers: {
          pasted: { command: process.execPath, args: [FIXTURE], env: { GITHUB_TOKEN: TOKEN } },
        },
      });
      const report = ok<DryRunReport>(
        await t.router.handle('dryRun.run', { source: 'paste', json, name: 'pasted' }),
      );
      assertSnooped(report, home);
      assert.deepEqual(report.args, [FIXTURE]);
      assert.deepEqual(report.envNames, ['GITHUB_TOKEN']);
      assert.ok(!JSON.stringify(report).includes(TOKEN), 'the literal secret never reaches the report');
      const weather = report.tools.find((x) => x.name === 'weather');
      assert.ok(!weather?.description?.includes(TOKEN), 'the server did not get the secret');
      assert.ok(!JSON.stringify(await t.audit.query({ kind: 'dry-run' })).includes(TOKEN));
      const ran = (await t.audit.query({ kind: 'dry-run' })).filter(
        (r) => r.serverId === 'pasted' && r.action === 'ran',
      );
      assert.equal(ran.length, 1);
      assert.equal(ran[0]?.details?.source, 'paste');
      const result = ok<{ added: string[] }>(await t.router.handle('servers.import', { json }));
      assert.deepEqual(result.added, ['pasted']);
      const pinned = (await t.audit.query({ kind: 'dry-run' })).filter(
        (r) => r.action === 'pinned' && r.serverId === 'pasted',
      );
      assert.deepEqual(
        pinned.map((r) => (r.details?.tools as string[]).sort()),
        [['read', 'weather']],
      );
    });

    it('pasted JSON edited after its dry run is imported without the old pins', async () => {
      const paste = (args: string[]) =>
        JSON.stringify({ mcpServers: { edited: { command: process.execPath, args } } });
      const report = ok<DryRunReport>(
        await t.router.handle('dryRun.run', { source: 'paste', json: paste([FIXTURE]), name: 'edited' }),
      );
      assert.equal(report.outcome.kind, 'listed', JSON.stringify(report.outcome));
      const result = ok<{ added: string[] }>(
        await t.router.handle('servers.import', { json: paste([FIXTURE, '--other']) }),
      );
      assert.deepEqual(result.added, ['edited']);
      const pinned = (await t.audit.query({ kind: 'dry-run' })).filter(
        (r) => r.action === 'pinned' && r.serverId === 'edited',
      );
      assert.deepEqual(pinned, [], 'what ran is not what was imported: nothing is pinned from it');
    });

    it('pasted JSON without the named server, or not JSON at all, is refused clearly and runs nothing', async () => {
      const json = JSON.stringify({ mcpServers: { one: { command: process.execPath, args: [FIXTURE] } } });
      const missing = await t.router.handle('dryRun.run', { source: 'paste', json, name: 'two' });
      assert.equal(missing.ok, false);
      assert.match(JSON.stringify(missing), /no server named “two”/);
      const broken = await t.router.handle('dryRun.run', { source: 'paste', json: '{ nope', name: 'one' });
      assert.equal(broken.ok, false);
      assert.match(JSON.stringify(broken), /not valid JSON/);
    });

    it('a request for a preview that does not exist is refused with a clear error, nothing runs', async () => {
      const r = await t.router.handle('dryRun.run', { source: 'import', scanId: 'gone', key: 'x' });
      assert.equal(r.ok, false);
      assert.match(JSON.stringify(r), /out of date/);
    });
  },
);
