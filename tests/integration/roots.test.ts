/**
 * Roots end to end: the host answers roots/list from its RootsStore and announces changes
 * with notifications/roots/list_changed, on 2025-era servers (server-everything over stdio
 * and Streamable HTTP, server-filesystem honouring them as its only allowed directories)
 * and through an input_required round on a 2026-07-28 server (the modern fixture).
 */
import assert from 'node:assert/strict';
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import {
  CleanupStack,
  connectedInfo,
  createTestHost,
  nodeServer,
  SERVERS,
  startEverythingHttp,
  summaryOf,
  tempDir,
  textOf,
  waitFor,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';

const EVERYTHING = ['ev-stdio', 'ev-http'] as const;

describe('roots', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  let t: TestHost;
  let a: string;
  let b: string;

  before(async () => {
    // realpath: server-filesystem compares resolved paths (on macOS /tmp is a symlink).
    const base = await realpath(await tempDir(stack, 'mcp-desk-roots-'));
    a = join(base, 'alpha');
    b = join(base, 'beta');
    await mkdir(a);
    await mkdir(b);
    await writeFile(join(a, 'a.txt'), 'inside alpha');
    await writeFile(join(b, 'b.txt'), 'inside beta');
    const http = await startEverythingHttp(stack, 'streamableHttp');
    t = await createTestHost(stack, {
      roots: [a],
      servers: {
        'ev-stdio': nodeServer(SERVERS.everything, ['stdio']),
        'ev-http': { url: `${http.origin}/mcp` },
        modern: nodeServer(SERVERS.modern),
        // No directory arguments: its only allowed directories are our roots.
        fs: nodeServer(SERVERS.filesystem, []),
      },
    });
    await Promise.all(
      ['ev-stdio', 'ev-http', 'modern', 'fs'].map((id) => waitForState(t.host, id, 'connected')),
    );
  });
  after(() => stack.run());

  const rootsText = (id: string) => t.host.callTool(id, 'get-roots-list', {}).then(textOf);

  it('lists the initial roots over the contract', async () => {
    const listed = await t.router.handle('roots.list', {});
    assert.deepEqual(listed, { ok: true, value: [{ uri: pathToFileURL(a).href }] });
  });

  for (const id of EVERYTHING) {
    it(`${id}: server-everything receives our roots`, async () => {
      const text = await waitFor(`${id} to know root A`, async () => {
        const got = await rootsText(id);
        return got.includes(pathToFileURL(a).href) ? got : undefined;
      });
      assert.match(text, /1 total/);
    });
  }

  it('the 2026-07-28 fixture gets our roots through an input_required round', async () => {
    assert.equal(connectedInfo(summaryOf(t.host, 'modern')).protocolEra, 'modern');
    assert.equal(textOf(await t.host.callTool('modern', 'list-roots', {})), pathToFileURL(a).href);
  });

  it('server-filesystem started without directories adopts root A', async () => {
    const result = await waitFor('server-filesystem to adopt root A', async () => {
      const r = await t.host.callTool('fs', 'read_text_file', { path: join(a, 'a.txt') });
      return r.isError ? undefined : r;
    });
    assert.equal(textOf(result), 'inside alpha');
    const outside = await t.host.callTool('fs', 'read_text_file', { path: join(b, 'b.txt') });
    assert.equal(outside.isError, true, 'B is not a root yet');
  });

  it('refuses a relative path through the contract and keeps the list', async () => {
    const res = await t.router.handle('roots.set', { roots: [{ uri: 'relative/dir' }] });
    assert.equal(res.ok, false);
    assert.ok(!res.ok && res.error.code === 'invalid_root', JSON.stringify(res));
    assert.deepEqual(t.roots.list(), [{ uri: pathToFileURL(a).href }]);
  });

  describe('after roots.set replaces A with B', () => {
    const sentBefore = new Map<string, number>();
    const changed = (id: string) =>
      t.host.trace(id).filter((e) => e.direction === 'out' && e.method === 'notifications/roots/list_changed')
        .length;

    before(async () => {
      for (const id of ['ev-stdio', 'ev-http', 'modern', 'fs']) sentBefore.set(id, changed(id));
      const res = await t.router.handle('roots.set', { roots: [{ uri: b, name: 'Beta' }] });
      assert.deepEqual(res, { ok: true, value: [{ uri: pathToFileURL(b).href, name: 'Beta' }] });
    });

    for (const id of [...EVERYTHING, 'fs']) {
      it(`${id}: the server was sent notifications/roots/list_changed`, async () => {
        await waitFor(`${id} to be told the roots changed`, () =>
          changed(id) > (sentBefore.get(id) ?? 0) ? true : undefined,
        );
      });
    }

    it('the stateless 2026-07-28 connection is sent no notification', () => {
      assert.equal(changed('modern'), sentBefore.get('modern'));
    });

    for (const id of EVERYTHING) {
      it(`${id}: get-roots-list returns the new list`, async () => {
        const text = await waitFor(`${id} to know root B`, async () => {
          const got = await rootsText(id);
          return got.includes(pathToFileURL(b).href) ? got : undefined;
        });
        assert.doesNotMatch(
          text,
          new RegExp(pathToFileURL(a).href.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '\\b'),
        );
        assert.match(text, /Beta/);
      });
    }

    it('the 2026-07-28 fixture sees the new list on its next call', async () => {
      assert.equal(textOf(await t.host.callTool('modern', 'list-roots', {})), pathToFileURL(b).href);
    });

    it('server-filesystem honours the change: A is refused, B is readable', async () => {
      const inB = await waitFor('server-filesystem to adopt root B', async () => {
        const r = await t.host.callTool('fs', 'read_text_file', { path: join(b, 'b.txt') });
        return r.isError ? undefined : r;
      });
      assert.equal(textOf(inB), 'inside beta');
      const inA = await t.host.callTool('fs', 'read_text_file', { path: join(a, 'a.txt') });
      assert.equal(inA.isError, true, 'A is no longer a root');
      assert.match(textOf(inA), /access denied|outside allowed/i);
      assert.doesNotMatch(textOf(inA), /inside alpha/);
    });

    it('records the change in the audit log', async () => {
      const records = await t.audit.query({ kind: 'roots' });
      assert.ok(
        records.some((r) => JSON.stringify(r.details ?? {}).includes(pathToFileURL(b).href)),
        JSON.stringify(records),
      );
    });
  });
});
