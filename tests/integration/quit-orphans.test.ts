/**
 * Quitting the whole app leaves no process behind. The real entry (`out/headless/cli.mjs
 * browser`, built by the test runner) runs as its own process with five stdio servers, one
 * of which spawns a grandchild; a browser tab's worth of bridge client stays connected; then
 * the app is asked to quit the way a person or the OS does it (SIGTERM, SIGINT). By the time
 * the app process has exited, every process carrying one of the servers' markers must be
 * gone, the exit code must be 0, and the writes queued just before the signal must be on
 * disk. A host-level variant does the same through composeHost and dispose().
 *
 * Each server gets a unique marker in its environment and children inherit it, so a /proc
 * scan finds every process a server ever started, re-parented or not. That scan is Linux-only.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import type { AuditRecord } from '../../shared/domain/audit.js';
import type { ServerSummary } from '../../shared/domain/server-state.js';
import { BRIDGE_PATH, type HostFrame } from '../../shared/ipc/bridge-protocol.js';
import { headlessCli } from '../helpers/browser-mode.js';
import {
  CleanupStack,
  createTestHost,
  nodeServer,
  pidsWithEnv,
  REPO_ROOT,
  SERVERS,
  slowCallsStarted,
  tempDir,
  waitFor,
  WAIT_MS,
} from '../helpers/host-harness.js';

const LINUX = process.platform === 'linux';
const SKIP = LINUX
  ? false
  : `needs Linux /proc to find every process a server started (this is ${process.platform})`;
if (SKIP) console.log(`quit-orphans: skipped: ${SKIP}`);

/** How long the app may take from the signal to its exit: dispose waits at most ~4 s per close plus a kill grace. */
const QUIT_MS = 20_000;

const stack = new CleanupStack();
const markers: string[] = [];
after(async () => {
  // Reap whatever a failed assertion left, so one failure does not leak into other files.
  if (LINUX) for (const m of markers) for (const p of pidsWithEnv(m)) process.kill(p, 'SIGKILL');
  await stack.run();
});

/** Five stdio servers, each with its own marker: two reference servers and three of our fixtures. */
async function fiveServers(
  dir: string,
): Promise<{ servers: Record<string, unknown>; markerOf: Map<string, string>; fsRoot: string }> {
  const fsRoot = join(dir, 'shared-folder');
  await mkdir(fsRoot, { recursive: true });
  await writeFile(join(fsRoot, 'note.txt'), 'hello\n');
  const markerOf = new Map<string, string>();
  const env = (id: string, extra: Record<string, string> = {}) => {
    const marker = `desk-quit-${id}-${randomUUID()}`;
    markers.push(marker);
    markerOf.set(id, marker);
    return { env: { DESK_QUIT_MARKER: marker, ...extra } };
  };
  const servers = {
    everything: nodeServer(SERVERS.everything, ['stdio'], env('everything')),
    files: nodeServer(SERVERS.filesystem, [fsRoot], env('files')),
    modern: nodeServer(SERVERS.modern, [], env('modern')),
    paged: nodeServer(SERVERS.paged, [], env('paged')),
    wrapper: nodeServer(SERVERS.grandchild, [], env('wrapper', { PID_FILE: join(dir, 'wrapper-pids.json') })),
  };
  return { servers, markerOf, fsRoot };
}

/** Every live process of every server, by server id. */
function liveByServer(markerOf: Map<string, string>): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const [id, marker] of markerOf) {
    const pids = pidsWithEnv(marker);
    if (pids.length) out[id] = pids;
  }
  return out;
}

/** The grandchild fixture's own pid and its child's, once it has written them. */
async function wrapperPids(dir: string): Promise<{ server: number; grandchild: number }> {
  return waitFor('the wrapper fixture to write its pids', async () => {
    try {
      return JSON.parse(await readFile(join(dir, 'wrapper-pids.json'), 'utf8')) as {
        server: number;
        grandchild: number;
      };
    } catch {
      return undefined;
    }
  });
}

/** Every audit record on disk, oldest first; a cut-short line fails the test (writes were not flushed whole). */
async function auditRecords(dataDir: string): Promise<AuditRecord[]> {
  const dir = join(dataDir, 'audit');
  const records: AuditRecord[] = [];
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.jsonl')).sort()) {
    const text = await readFile(join(dir, name), 'utf8');
    assert.ok(text.endsWith('\n'), `${name} ends with a whole line`);
    for (const line of text.split('\n').filter(Boolean)) records.push(JSON.parse(line) as AuditRecord);
  }
  return records;
}

/** A minimal bridge client: calls matched to replies by id. */
class BridgeClient {
  private nextId = 1;
  private readonly waiting = new Map<number, (frame: Extract<HostFrame, { type: 'result' }>) => void>();

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const frame = JSON.parse((data as Buffer).toString('utf8')) as HostFrame;
      if (frame.type === 'result') this.waiting.get(frame.id)?.(frame);
    });
  }

  static open(pageUrl: string): Promise<BridgeClient> {
    const url = new URL(pageUrl);
    const token = new URLSearchParams(url.hash.slice(1)).get('token') ?? '';
    const ws = new WebSocket(`ws://${url.host}${BRIDGE_PATH}?token=${encodeURIComponent(token)}`, {
      origin: url.origin,
    });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new BridgeClient(ws)));
      ws.once('error', reject);
    });
  }

  async invoke<T>(channel: string, payload: unknown = {}): Promise<T> {
    const id = this.nextId++;
    const frame = await new Promise<Extract<HostFrame, { type: 'result' }>>((resolve) => {
      this.waiting.set(id, resolve);
      this.ws.send(JSON.stringify({ type: 'invoke', id, channel, payload }));
    });
    this.waiting.delete(id);
    if (!frame.ok) throw new Error(`${channel}: ${frame.error.code}: ${frame.error.message}`);
    return frame.value as T;
  }
}

/** The app as its own process: browser mode over a temp config and data folder. */
interface App {
  child: ChildProcess;
  url: string;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function startApp(configPath: string, dataDir: string): Promise<App> {
  assert.ok(
    existsSync(headlessCli),
    `${headlessCli} is missing: run \`npm run build -- --headless-only\` (npm test builds it)`,
  );
  const child = spawn(
    process.execPath,
    [headlessCli, 'browser', '--config', configPath, '--port', '0', '--no-open'],
    {
      cwd: REPO_ROOT,
      // No marker here: only the servers carry one, so the scan never counts the app itself.
      env: { ...process.env, MCP_DESK_DATA_DIR: dataDir, NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let text = '';
  child.stdout.on('data', (c: Buffer) => (text += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (text += c.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal })),
  );
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  stack.defer(async () => {
    process.off('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  const url = await waitFor(`the app to print its URL (${text})`, () => {
    if (child.exitCode !== null) throw new Error(`the app exited early (code ${child.exitCode}):\n${text}`);
    return /^MCP Desk browser mode: (http:\/\/127\.0\.0\.1:\d+\/#token=\S+)$/m.exec(text)?.[1];
  });
  return { child, url, output: () => text, exited };
}

describe('quitting the app with five stdio servers running', { skip: SKIP, timeout: 180_000 }, () => {
  for (const sequence of [['SIGTERM'], ['SIGINT', 'SIGINT']] as const) {
    it(`${sequence.join(' then ')}: no orphans, exit code 0, writes flushed`, async () => {
      const dir = await tempDir(stack, 'mcp-desk-quit-');
      const dataDir = join(dir, 'data');
      const configPath = join(dir, 'mcp-servers.json');
      const { servers, markerOf, fsRoot } = await fiveServers(dir);
      await writeFile(configPath, `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`);
      const app = await startApp(configPath, dataDir);
      const bridge = await BridgeClient.open(app.url);
      stack.defer(() => bridge.ws.terminate());

      const ids = [...markerOf.keys()].sort();
      await waitFor(
        'all five servers to be connected',
        async () => {
          const list = await bridge.invoke<ServerSummary[]>('servers.list');
          return list.length === 5 && list.every((s) => s.state.kind === 'connected') ? true : undefined;
        },
        WAIT_MS * 2,
      ).catch(async (error: Error) =>
        assert.fail(
          `${error.message}: ${JSON.stringify(await bridge.invoke('servers.list'))}\n${app.output()}`,
        ),
      );
      const { server, grandchild } = await wrapperPids(dir);
      const live = liveByServer(markerOf);
      assert.deepEqual(
        Object.keys(live).sort(),
        ids,
        `every server has live processes: ${JSON.stringify(live)}`,
      );
      assert.ok(
        live.wrapper?.includes(server) && live.wrapper.includes(grandchild),
        `the wrapper and its grandchild run: ${JSON.stringify(live.wrapper)}`,
      );

      // Changes a person makes just before quitting: they must survive the quit.
      await bridge.invoke('roots.set', { roots: [{ uri: fsRoot, name: 'quit test' }] });
      await bridge.invoke('settings.update', { maxTurns: 7 });

      const [first, ...repeats] = sequence;
      app.child.kill(first);
      if (repeats.length) {
        // A second Ctrl+C once the shutdown is under way (the first server tree is gone): it
        // must not cut the cleanup short. Sent together, the kernel would merge the two.
        await waitFor(
          'the shutdown to begin',
          () =>
            Object.keys(liveByServer(markerOf)).length < ids.length || app.child.exitCode !== null
              ? true
              : undefined,
          QUIT_MS,
        );
        for (const signal of repeats) app.child.kill(signal);
      }
      let timer: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        app.exited,
        new Promise<'hung'>((r) => (timer = setTimeout(() => r('hung'), QUIT_MS))),
      ]);
      clearTimeout(timer);
      // Scanned at once: the app promises the trees are gone before it exits, not some time after.
      const leftover = liveByServer(markerOf);
      assert.notEqual(
        outcome,
        'hung',
        `the app did not exit within ${QUIT_MS} ms of ${sequence.join(', ')}:\n${app.output()}`,
      );
      assert.deepEqual(leftover, {}, `processes outlived the app: ${JSON.stringify(leftover)}`);
      assert.deepEqual(
        outcome,
        { code: 0, signal: null },
        `exit after ${sequence.join(', ')}:\n${app.output()}`,
      );

      const roots = JSON.parse(await readFile(join(dataDir, 'roots.json'), 'utf8')) as {
        roots: { uri: string; name?: string }[];
      };
      assert.deepEqual(
        roots.roots.map((r) => r.name),
        ['quit test'],
        'the roots file holds the folder shared just before the quit',
      );
      const settings = JSON.parse(await readFile(join(dataDir, 'settings.json'), 'utf8')) as {
        chat?: { maxTurns?: number };
      };
      assert.equal(
        settings.chat?.maxTurns,
        7,
        'the settings file holds the change made just before the quit',
      );
      const records = await auditRecords(dataDir);
      const disconnected = records
        .filter((r) => r.kind === 'connection' && r.action === 'disconnected')
        .map((r) => r.serverId ?? '')
        .sort();
      assert.deepEqual(disconnected, ids, 'the audit log records every server disconnecting on quit');
      assert.ok(
        records.some((r) => r.kind === 'roots' && r.action === 'changed'),
        'the roots change is in the audit log',
      );
    });
  }
});

describe('host dispose with five stdio servers running', { skip: SKIP, timeout: 120_000 }, () => {
  it('dispose() leaves no process with any marker and records every disconnect', async () => {
    const dir = await tempDir(stack, 'mcp-desk-quit-host-');
    const { servers, markerOf } = await fiveServers(dir);
    const t = await createTestHost(stack, { servers, dataDir: true });
    await waitFor(
      'all five servers to be connected',
      () => (t.host.list().every((s) => s.state.kind === 'connected') ? true : undefined),
      WAIT_MS * 2,
    );
    await wrapperPids(dir);
    assert.deepEqual(Object.keys(liveByServer(markerOf)).sort(), [...markerOf.keys()].sort());
    await t.dispose();
    assert.deepEqual(liveByServer(markerOf), {}, 'dispose() resolves only once every tree is gone');
    const disconnected = (await auditRecords(join(t.dir, 'data'))).filter(
      (r) => r.kind === 'connection' && r.action === 'disconnected',
    );
    assert.equal(disconnected.length, 5);
  });
});

describe('interrupting a one-shot command', { skip: SKIP, timeout: 60_000 }, () => {
  it('Ctrl+C during a long tool call stops the servers and exits 130', async () => {
    const dir = await tempDir(stack, 'mcp-desk-quit-call-');
    const marker = `desk-quit-call-${randomUUID()}`;
    markers.push(marker);
    const configPath = join(dir, 'mcp-servers.json');
    const callLog = join(dir, 'calls.log');
    await writeFile(
      configPath,
      JSON.stringify({
        mcpServers: {
          slow: nodeServer(SERVERS.crash, [], { env: { DESK_QUIT_MARKER: marker, CALL_LOG: callLog } }),
        },
      }),
    );
    assert.ok(existsSync(headlessCli), `${headlessCli} is missing: run \`npm run build -- --headless-only\``);
    const child = spawn(
      process.execPath,
      [headlessCli, '--config', configPath, 'call', 'slow', 'slow', '{"ms":60000}'],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, MCP_DESK_DATA_DIR: join(dir, 'data'), NODE_OPTIONS: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    stack.defer(() => void child.kill('SIGKILL'));
    // Ctrl+C once the server is working on the call: the moment it logs the call's start.
    await slowCallsStarted(callLog);
    child.kill('SIGINT');
    const code = await Promise.race([
      exited,
      new Promise<'hung'>((r) => setTimeout(() => r('hung'), QUIT_MS)),
    ]);
    assert.deepEqual(pidsWithEnv(marker), [], 'no server process outlives the command');
    assert.equal(code, 130, stderr);
    assert.match(stderr, /interrupted \(SIGINT\); stopping servers/);
  });
});
