/**
 * The era-verdict cache against real servers: a verdict stored once and reused on restart and
 * on the next launch; a probe that timed out but was answered late (recorded, and a session
 * nobody used yet reconnected in 2026-07-28); a silent probe cached as tentative.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { launchKey } from '../../electron/host/config/launch-key.js';
import type { ServerConfig } from '../../shared/domain/server-config.js';
import {
  CleanupStack,
  connectedInfo,
  createTestHost,
  nodeServer,
  SERVERS,
  summaryOf,
  tempDir,
  textOf,
  waitFor,
  waitForState,
} from '../helpers/host-harness.js';
import { HOSTILE } from '../helpers/hostile-harness.js';

interface StoredVerdict {
  verdict?: { kind?: string };
  tentative?: boolean;
}

/** What the cache file at `path` holds for `config` (nothing while the file is not written yet). */
async function cachedVerdict(path: string, config: ServerConfig): Promise<StoredVerdict | undefined> {
  const text = await readFile(path, 'utf8').catch(() => '');
  const data = text ? (JSON.parse(text) as Record<string, StoredVerdict>) : {};
  return data[launchKey(config)];
}

/** A short probe cap, so a server that starts a few seconds late outlives it (the product's is longer). */
const PROBE_MS = 3000;

describe('era-verdict cache', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  after(() => stack.run());

  it('stores a modern verdict once and reuses it on restart and on the next launch', async () => {
    const dir = await tempDir(stack);
    const cachePath = join(dir, 'era-verdicts.json');
    const config = nodeServer(SERVERS.modern) as ServerConfig;
    const key = launchKey(config);
    const first = await createTestHost(stack, { servers: { modern: config }, eraCache: cachePath });
    // On a loaded machine the first probe may time out (the session then speaks 2025): its late
    // answer still lands in the cache, which is what this test is about.
    await waitForState(first.host, 'modern', 'connected');

    const stored = await waitFor(
      'a modern verdict in the cache file',
      async () => {
        const text = await readFile(cachePath, 'utf8').catch(() => '');
        const data = text ? (JSON.parse(text) as Record<string, StoredVerdict>) : {};
        return data[key]?.verdict?.kind === 'modern' ? text : undefined;
      },
      45_000,
    );

    // A restart connects with the cached verdict: no probe, so nothing new is written.
    await first.host.restart('modern');
    const again = connectedInfo(await waitForState(first.host, 'modern', 'connected'));
    assert.equal(again.protocolEra, 'modern');
    assert.equal(again.protocolVersion, '2026-07-28');
    await first.dispose();
    assert.equal(await readFile(cachePath, 'utf8'), stored, 'the verdict was reused, not re-probed');

    // A fresh host (the next launch) reads the same file.
    const second = await createTestHost(stack, { servers: { modern: config }, eraCache: cachePath });
    assert.equal(connectedInfo(await waitForState(second.host, 'modern', 'connected')).protocolEra, 'modern');
    assert.equal(textOf(await second.host.callTool('modern', 'whoami', {})), 'modern');
    await second.dispose();
    assert.equal(await readFile(cachePath, 'utf8'), stored);
  });

  it('hears a timed-out probe answer late: a dual-era server slow to start is recorded as modern, and reconnects in that era at once', async () => {
    // Slower than the 3 s probe: the probe hears nothing in time and the SDK falls back to the
    // 2025 handshake (the dual-era fixture accepts it), but the probe's sibling keeps listening
    // off the connect's path and hears the server's DiscoverResult once it is up. Nothing was
    // sent on the 2025 session yet, so the server is connected again, in 2026-07-28.
    const config = nodeServer(SERVERS.modern, [], { env: { MODERN_START_DELAY_MS: '4000' } }) as ServerConfig;
    const t = await createTestHost(stack, {
      servers: { slow: config },
      eraCache: true,
      stdioProbeMs: PROBE_MS,
    });
    const states: string[] = [];
    stack.defer(
      t.events.on('servers.changed', (list) => {
        const kind = list.find((x) => x.id === 'slow')?.state.kind;
        if (kind && kind !== states.at(-1)) states.push(kind);
      }),
    );
    const path = join(t.dir, 'era-verdicts.json');
    // The sibling listens for up to 15 s after the probe's cap.
    const stored = await waitFor(
      'the late modern verdict in the cache file',
      async () => {
        const entry = await cachedVerdict(path, config);
        return entry?.verdict?.kind === 'modern' ? entry : undefined;
      },
      45_000,
    );
    assert.equal(stored.tentative, undefined, 'an answered probe is no tentative verdict');
    await waitFor(
      'the reconnect in 2026-07-28',
      async () => {
        const s = summaryOf(t.host, 'slow').state;
        return s.kind === 'connected' && s.info.protocolEra === 'modern' ? true : undefined;
      },
      45_000,
    );
    assert.ok(
      t.host
        .log('slow')
        .some((l) => /answered late: this server speaks 2026-07-28; reconnecting/.test(l.text)),
    );
    assert.ok(
      !states.includes('disabled') && !states.includes('failed'),
      `never off or failed: ${states.join(' ')}`,
    );
    assert.equal(textOf(await t.host.callTool('slow', 'whoami', {})), 'modern');
  });

  it('keeps a 2025 session that is in use when the late answer says 2026-07-28; the next start uses it', async () => {
    // The session process starts at once; only the probe's sibling (the first process) is slow.
    const marker = join(await tempDir(stack), 'first-start');
    const config = nodeServer(SERVERS.modern, [], {
      env: { MODERN_START_DELAY_MS: '6000', MODERN_DELAY_ONCE_FILE: marker },
    }) as ServerConfig;
    const t = await createTestHost(stack, {
      servers: { busy: config },
      eraCache: true,
      stdioProbeMs: PROBE_MS,
    });
    assert.equal(connectedInfo(await waitForState(t.host, 'busy', 'connected')).protocolEra, 'legacy');
    assert.equal(
      textOf(await t.host.callTool('busy', 'whoami', {})),
      'legacy',
      'a call went out on the 2025 session',
    );
    await waitFor(
      'the late answer',
      async () =>
        t.host
          .log('busy')
          .some((l) => /answered late: this server speaks 2026-07-28, which the next start uses/.test(l.text))
          ? true
          : undefined,
      45_000,
    );
    const s = summaryOf(t.host, 'busy').state;
    assert.equal(
      s.kind === 'connected' ? s.info.protocolEra : s.kind,
      'legacy',
      'the session in use was kept',
    );
    await t.host.restart('busy');
    assert.equal(connectedInfo(await waitForState(t.host, 'busy', 'connected')).protocolEra, 'modern');
  });

  it('hears a timed-out probe answer late: a 2025 server slow to start is recorded as legacy, not tentative', async () => {
    // A loaded machine: the server reads stdin only after 4 s, so the 3 s probe times out; its
    // "method not found" arrives afterwards, while the session is already connecting.
    const config = nodeServer(HOSTILE, [], { env: { HOSTILE_START_DELAY_MS: '4000' } }) as ServerConfig;
    const t = await createTestHost(stack, {
      servers: { late: config },
      eraCache: true,
      stdioProbeMs: PROBE_MS,
    });
    assert.equal(connectedInfo(await waitForState(t.host, 'late', 'connected')).protocolEra, 'legacy');
    const path = join(t.dir, 'era-verdicts.json');
    const stored = await waitFor('a legacy verdict in the cache file', async () => {
      const entry = await cachedVerdict(path, config);
      return entry?.verdict?.kind === 'legacy' ? entry : undefined;
    });
    // The tentative verdict of the handshake may land first; the late answer then makes it firm.
    await waitFor('the late answer to make the verdict firm', async () => {
      return (await cachedVerdict(path, config))?.tentative === undefined ? true : undefined;
    });
    assert.equal(stored.verdict?.kind, 'legacy');
    assert.ok(t.host.log('late').some((l) => /answered late: this is a 2025 server/.test(l.text)));
  });

  it('caches a tentative legacy verdict when the probe hears only silence and the 2025 handshake works', async () => {
    const config = nodeServer(HOSTILE, [], { env: { HOSTILE_IGNORE_UNKNOWN: '1' } }) as ServerConfig;
    const t = await createTestHost(stack, {
      servers: { quiet: config },
      eraCache: true,
      stdioProbeMs: PROBE_MS,
    });
    assert.equal(connectedInfo(await waitForState(t.host, 'quiet', 'connected')).protocolEra, 'legacy');
    const path = join(t.dir, 'era-verdicts.json');
    const stored = await waitFor('a tentative legacy verdict in the cache file', async () => {
      const entry = await cachedVerdict(path, config);
      return entry?.verdict?.kind === 'legacy' ? entry : undefined;
    });
    assert.equal(stored.tentative, true, JSON.stringify(stored));
    // The next start skips the probe: the first request the server sees is initialize.
    await t.host.restart('quiet');
    await waitForState(t.host, 'quiet', 'connected');
    const sent = t.host
      .trace('quiet')
      .filter((e) => e.direction === 'out')
      .map((e) => e.method);
    assert.equal(
      sent.find((m) => m !== undefined),
      'initialize',
      sent.join(','),
    );
  });

  it('stores a legacy verdict for a 2025 server', async () => {
    // server-everything is built on the 2025 SDK (the fixtures' v2 SDK serves both eras).
    const config = nodeServer(SERVERS.everything, ['stdio']) as ServerConfig;
    const t = await createTestHost(stack, {
      servers: { old: config },
      eraCache: true,
      stdioProbeMs: PROBE_MS,
    });
    assert.equal(connectedInfo(await waitForState(t.host, 'old', 'connected')).protocolEra, 'legacy');
    const path = join(t.dir, 'era-verdicts.json');
    await waitFor('a legacy verdict in the cache file', async () => {
      return (await cachedVerdict(path, config))?.verdict?.kind === 'legacy' ? true : undefined;
    });
  });
});
