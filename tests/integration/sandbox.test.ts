/**
 * The OS sandbox for stdio servers, end to end with real bubblewrap: a server that reads and
 * writes wherever it is told (the path-probe fixture) reaches its root and nothing else when
 * sandboxed, while the very same server unsandboxed reaches everything (the control, so the
 * test can fail); a roots change restarts it with the new mounts; stopping it leaves no
 * process; server-filesystem from npm starts and lists a root inside the sandbox; and a
 * server that asks for a sandbox the machine cannot give fails and never runs.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { composeHost } from '../../electron/host/compose.js';
import { systemSandboxDetector } from '../../electron/host/connection/sandbox/sandbox-detector.js';
import type { ServerConfig } from '../../shared/domain/server-config.js';
import {
  CleanupStack,
  createTestHost,
  failedError,
  nodeServer,
  pidsWithEnv,
  recordStates,
  REPO_ROOT,
  SERVERS,
  summaryOf,
  tempDir,
  textOf,
  waitAllDead,
  waitFor,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';

const PROBE = join(REPO_ROOT, 'tests/fixtures/path-probe-server.mjs');

/** Why the bubblewrap tests cannot run here, or undefined when they can. */
function skipReason(): string | undefined {
  if (process.platform !== 'linux')
    return `the bubblewrap sandbox is Linux-only (this is ${process.platform})`;
  const available = systemSandboxDetector.detect();
  return available.ok ? undefined : available.reason;
}
const skip = skipReason();
if (skip) console.log(`sandbox tests skipped: ${skip}`);

describe('stdio sandbox (bubblewrap)', { timeout: 180_000, skip: skip ?? false }, () => {
  const stack = new CleanupStack();
  let t: TestHost;
  let rootA: string;
  let rootB: string;
  let outside: string;
  let home: string;
  const markers: string[] = [];

  before(async () => {
    // realpath: the sandbox mounts resolved paths, and the fixture reports paths as given.
    const base = await realpath(await tempDir(stack, 'mcp-desk-sandbox-'));
    rootA = join(base, 'alpha');
    rootB = join(base, 'beta');
    outside = join(base, 'outside');
    home = join(base, 'home');
    for (const d of [rootA, rootB, outside, home]) await mkdir(d);
    await writeFile(join(rootA, 'a.txt'), 'inside alpha');
    await writeFile(join(rootB, 'b.txt'), 'inside beta');
    await writeFile(join(outside, 'secret.txt'), 'outside the roots');
    await writeFile(join(home, 'secret.txt'), 'in the home');
    t = await createTestHost(stack, {
      roots: [rootA],
      env: { ...process.env, HOME: home },
      servers: {
        boxed: nodeServer(PROBE, [], { sandbox: true }),
        open: nodeServer(PROBE),
        // No directory arguments: its only allowed directories are our roots.
        fs: nodeServer(SERVERS.filesystem, [], { sandbox: true }),
      },
    });
    await Promise.all(['boxed', 'open', 'fs'].map((id) => waitForState(t.host, id, 'connected')));
  });
  after(async () => {
    for (const m of markers) for (const p of pidsWithEnv(m)) process.kill(p, 'SIGKILL');
    await stack.run();
  });

  const call = (id: string, tool: string, args: Record<string, unknown>) => t.host.callTool(id, tool, args);

  it('the summary says which servers are sandboxed, with what and how many folders', () => {
    assert.deepEqual(summaryOf(t.host, 'boxed').sandbox, { kind: 'on', tool: 'bubblewrap', paths: 1 });
    assert.deepEqual(summaryOf(t.host, 'open').sandbox, { kind: 'off' });
  });

  it('a sandboxed server reads and writes inside its root', async () => {
    assert.equal(textOf(await call('boxed', 'read', { path: join(rootA, 'a.txt') })), 'inside alpha');
    assert.equal(
      textOf(await call('boxed', 'write', { path: join(rootA, 'new.txt'), text: 'from the sandbox' })),
      'written',
    );
    assert.equal(await readFile(join(rootA, 'new.txt'), 'utf8'), 'from the sandbox');
  });

  it('a sandboxed server cannot read outside the roots nor in HOME; unsandboxed it can', async () => {
    for (const path of [join(outside, 'secret.txt'), join(home, 'secret.txt')]) {
      const open = await call('open', 'read', { path });
      assert.equal(open.isError, undefined, `control: the unsandboxed server reads ${path}: ${textOf(open)}`);
      const boxed = await call('boxed', 'read', { path });
      assert.equal(boxed.isError, true, `the sandboxed server must not read ${path}`);
      assert.match(textOf(boxed), /^ENOENT/);
    }
    const env = JSON.parse(textOf(await call('boxed', 'env', {}))) as { home: string; tmpdir: string };
    assert.equal(env.home, home, 'HOME keeps its path...');
    assert.equal(
      textOf(await call('boxed', 'list', { path: home })),
      '[]',
      '...but is an empty private directory',
    );
    assert.equal(env.tmpdir, '/tmp');
  });

  it('a sandboxed server cannot write outside its roots', async () => {
    const target = join(outside, 'planted.txt');
    const boxed = await call('boxed', 'write', { path: target, text: 'x' });
    assert.equal(boxed.isError, true);
    assert.equal(existsSync(target), false);
    const system = await call('boxed', 'write', {
      path: join(REPO_ROOT, 'planted-by-sandbox.txt'),
      text: 'x',
    });
    assert.equal(system.isError, true, 'the server’s own package tree is read-only');
    assert.match(textOf(system), /^EROFS/);
  });

  it('server-filesystem from npm starts sandboxed and lists its root', async () => {
    const listed = await waitFor('server-filesystem to adopt root A', async () => {
      const r = await call('fs', 'list_directory', { path: rootA });
      return r.isError ? undefined : textOf(r);
    });
    assert.match(listed, /a\.txt/);
  });

  it('a roots change restarts the sandboxed servers, which then see the new root; others are only notified', async () => {
    const states = recordStates(t, stack);
    const before = await call('boxed', 'read', { path: join(rootB, 'b.txt') });
    assert.equal(before.isError, true, 'root B is not mounted yet');
    await t.roots.set([{ uri: rootA }, { uri: rootB }]);
    const read = await waitFor('the restarted server to read root B', async () => {
      if (summaryOf(t.host, 'boxed').state.kind !== 'connected') return undefined;
      const r = await call('boxed', 'read', { path: join(rootB, 'b.txt') }).catch(() => undefined);
      return r && !r.isError ? textOf(r) : undefined;
    });
    assert.equal(read, 'inside beta');
    assert.ok(
      states.get('boxed')?.includes('connecting'),
      `boxed was restarted: ${states.get('boxed')?.join(' > ')}`,
    );
    assert.deepEqual(
      states.get('open') ?? ['connected'],
      ['connected'],
      'the unsandboxed server kept its connection',
    );
    assert.ok(
      t.host
        .log('boxed')
        .some((l) => l.stream === 'host' && /restarting: the shared folders changed/.test(l.text)),
    );
    await waitForState(t.host, 'boxed', 'connected');
    assert.deepEqual(summaryOf(t.host, 'boxed').sandbox, { kind: 'on', tool: 'bubblewrap', paths: 2 });
  });

  it('stopping a sandboxed server leaves no process behind (bwrap, its init, the server, its child)', async () => {
    const marker = `desk-sbx-${randomUUID()}`;
    markers.push(marker);
    const pidFile = join(rootA, `${marker}.json`);
    await t.host.add(
      'gc',
      nodeServer(SERVERS.grandchild, [], {
        sandbox: true,
        env: { PID_FILE: pidFile, DESK_IT_MARKER: marker },
      }) as ServerConfig,
    );
    await waitForState(t.host, 'gc', 'connected');
    await waitFor('the grandchild to start', () => (existsSync(pidFile) ? true : undefined));
    // Exactly these four: the era probe's throwaway sibling was reaped with its whole tree too.
    const family = await waitFor(
      'only bwrap, its init, the server and the grandchild',
      () => {
        const pids = pidsWithEnv(marker);
        return pids.length === 4 ? pids : undefined;
      },
      10_000,
    ).catch(() => assert.fail(`processes with the marker: ${pidsWithEnv(marker).join(', ')}`));
    await t.host.remove('gc');
    assert.deepEqual(pidsWithEnv(marker), [], 'remove() resolves only once the whole tree is gone');
    await waitAllDead(family);
  });
});

describe('stdio sandbox unavailable', { timeout: 60_000 }, () => {
  const stack = new CleanupStack();
  after(() => stack.run());

  // Simulated with an injected detector: a machine without bwrap (or without user namespaces)
  // cannot be produced inside this test, and the point is what the host does with the verdict.
  it('a server that asks for a sandbox fails with sandbox_unavailable and never runs', async () => {
    const dir = await tempDir(stack);
    const marker = `desk-sbx-${randomUUID()}`;
    const pidFile = join(dir, 'pids.json');
    const configPath = join(dir, 'mcp-servers.json');
    const server = nodeServer(SERVERS.grandchild, [], {
      sandbox: true,
      env: { PID_FILE: pidFile, DESK_IT_MARKER: marker },
    });
    await writeFile(configPath, JSON.stringify({ mcpServers: { boxed: server } }));
    const services = await composeHost({
      configPath,
      mode: 'cli',
      sandbox: { detect: () => ({ ok: false, reason: 'simulated: bwrap is missing' }) },
    });
    stack.defer(() => services.dispose());
    await services.host.init();
    const summary = await waitForState(services.host, 'boxed', 'failed');
    const error = failedError(summary);
    assert.equal(error.code, 'sandbox_unavailable');
    assert.match(error.message, /simulated: bwrap is missing/);
    assert.deepEqual(summary.sandbox, { kind: 'unavailable', reason: 'simulated: bwrap is missing' });
    assert.equal(existsSync(pidFile), false, 'the server never started');
    if (process.platform === 'linux') assert.deepEqual(pidsWithEnv(marker), []);
  });
});
