/**
 * Live resources and log levels through the real host: server-everything (2025) over stdio and
 * Streamable HTTP, and our watch fixture on the 2026-07-28 era (subscriptions/listen).
 * Subscribe, an update arrives, unsubscribe tells the server, and nothing more is delivered;
 * two holders share one subscription; a disconnect drops it and the next session restores it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TraceEntry } from '../../shared/domain/server-state.js';
import type { ResourceUpdated } from '../../shared/ipc/contract.js';
import {
  CleanupStack,
  connectedInfo,
  createTestHost,
  nodeServer,
  rejection,
  REPO_ROOT,
  SERVERS,
  startEverythingHttp,
  summaryOf,
  waitFor,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';

const WATCH = join(REPO_ROOT, 'tests/fixtures/watch-server.mjs');

/** Outgoing trace entries of `method`, optionally for one uri. */
function sent(t: TestHost, id: string, method: string, uri?: string): TraceEntry[] {
  return t.host
    .trace(id)
    .filter((e) => e.direction === 'out' && e.method === method)
    .filter((e) => uri === undefined || e.json.includes(JSON.stringify(uri)));
}

/** Every `resources.updated` event, in order. */
function recordUpdates(t: TestHost, stack: CleanupStack): ResourceUpdated[] {
  const seen: ResourceUpdated[] = [];
  stack.defer(t.events.on('resources.updated', (u) => seen.push(u)));
  return seen;
}

const updateOf = (seen: ResourceUpdated[], id: string, uri: string, from = 0) =>
  seen.slice(from).find((u) => u.serverId === id && u.uri === uri);

describe('resource subscriptions', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  let t: TestHost;
  let updates: ResourceUpdated[];

  before(async () => {
    const http = await startEverythingHttp(stack, 'streamableHttp');
    t = await createTestHost(stack, {
      dataDir: true,
      servers: {
        'every-stdio': nodeServer(SERVERS.everything, ['stdio']),
        'every-http': { url: `${http.origin}/mcp` },
        watch: nodeServer(WATCH),
      },
    });
    updates = recordUpdates(t, stack);
    await Promise.all(
      ['every-stdio', 'every-http', 'watch'].map((id) => waitForState(t.host, id, 'connected')),
    );
  });
  after(() => stack.run());

  for (const id of ['every-stdio', 'every-http']) {
    it(`${id}: subscribe once for two holders, get updates, unsubscribe tells the server`, async () => {
      const uri = 'demo://resource/static/document/architecture.md';
      const sentinel = 'demo://sentinel';
      assert.deepEqual(await t.subscriptions.subscribe(id, uri, 'view-a'), { subscribed: true });
      assert.deepEqual(await t.subscriptions.subscribe(id, uri, 'view-b'), { subscribed: true });
      assert.equal(sent(t, id, 'resources/subscribe', uri).length, 1, 'one server subscription');
      const held = t.subscriptions.list().find((s) => s.serverId === id && s.uri === uri);
      assert.deepEqual(held?.holders, ['view-a', 'view-b']);
      assert.equal(held?.via, 'subscribe');

      // server-everything sends an update for every subscribed URI as the toggle turns on.
      const from = updates.length;
      await t.host.callTool(id, 'toggle-subscriber-updates', {});
      await waitFor('an update', () => updateOf(updates, id, uri, from));

      await t.subscriptions.unsubscribe(id, uri, 'view-a');
      assert.equal(sent(t, id, 'resources/unsubscribe', uri).length, 0, 'view-b still holds it');
      assert.deepEqual(await t.subscriptions.unsubscribe(id, uri, 'view-b'), { released: true });
      assert.equal(sent(t, id, 'resources/unsubscribe', uri).length, 1, 'the server was told');
      assert.equal(
        t.subscriptions.list().some((s) => s.serverId === id && s.uri === uri),
        false,
      );

      // Off and on again: the server announces every URI still subscribed, in order. The
      // sentinel's update arriving proves the unsubscribed URI's would have come before it.
      await t.subscriptions.subscribe(id, sentinel, 'view-c');
      const mark = updates.length;
      const traceMark = t.host.trace(id).at(-1)?.seq ?? 0;
      await t.host.callTool(id, 'toggle-subscriber-updates', {});
      await t.host.callTool(id, 'toggle-subscriber-updates', {});
      await waitFor('the sentinel update', () => updateOf(updates, id, sentinel, mark));
      assert.equal(updateOf(updates, id, uri, mark), undefined, 'no update after unsubscribe');
      const late = t.host
        .trace(id)
        .filter(
          (e) => e.seq > traceMark && e.direction === 'in' && e.method === 'notifications/resources/updated',
        );
      assert.ok(
        late.length > 0 && late.every((e) => !e.json.includes(JSON.stringify(uri))),
        'server sent none',
      );
      await t.host.callTool(id, 'toggle-subscriber-updates', {});
      await t.subscriptions.unsubscribe(id, sentinel, 'view-c');
    });
  }

  it('drops subscriptions on disconnect and restores them on the next session', async () => {
    const id = 'every-stdio';
    const uri = 'demo://resource/static/document/features.md';
    await t.subscriptions.subscribe(id, uri, 'view-a');
    const before = sent(t, id, 'resources/subscribe', uri).length;
    await t.host.setEnabled(id, false);
    const down = t.subscriptions.list().find((s) => s.uri === uri);
    assert.equal(down?.active, false);
    assert.deepEqual(down?.holders, ['view-a'], 'the holder keeps waiting');
    await t.host.setEnabled(id, true);
    await waitForState(t.host, id, 'connected');
    await waitFor('the subscription back', () =>
      t.subscriptions.list().find((s) => s.uri === uri && s.active),
    );
    assert.equal(sent(t, id, 'resources/subscribe', uri).length, before + 1, 'subscribed again');
    const from = updates.length;
    await t.host.callTool(id, 'toggle-subscriber-updates', {});
    await waitFor('an update on the new session', () => updateOf(updates, id, uri, from));
    await t.host.callTool(id, 'toggle-subscriber-updates', {});
    await t.subscriptions.unsubscribe(id, uri, 'view-a');
  });

  it('refuses past the per-server cap, with a reason', async () => {
    const id = 'every-http';
    const uris = Array.from({ length: 32 }, (_, i) => `demo://cap/${i}`);
    for (const uri of uris) assert.equal((await t.subscriptions.subscribe(id, uri, 'cap')).subscribed, true);
    const over = await t.subscriptions.subscribe(id, 'demo://cap/over', 'cap');
    assert.equal(over.subscribed, false);
    assert.match(over.reason ?? '', /limit/);
    for (const uri of uris) await t.subscriptions.unsubscribe(id, uri, 'cap');
    assert.equal(t.subscriptions.list().filter((s) => s.serverId === id).length, 0);
  });

  it('2026-07-28: one subscriptions/listen stream per resource, closed when released', async () => {
    assert.equal(connectedInfo(summaryOf(t.host, 'watch')).protocolEra, 'modern');
    const counter = 'watch://counter';
    const other = 'watch://other';
    assert.deepEqual(await t.subscriptions.subscribe('watch', counter, 'view-a'), { subscribed: true });
    await t.subscriptions.subscribe('watch', counter, 'view-b');
    assert.equal(sent(t, 'watch', 'subscriptions/listen', counter).length, 1);
    assert.equal(t.subscriptions.list().find((s) => s.uri === counter)?.via, 'listen');
    const from = updates.length;
    await t.host.callTool('watch', 'bump', { uri: counter });
    await waitFor('the listen update', () => updateOf(updates, 'watch', counter, from));

    await t.subscriptions.unsubscribe('watch', counter, 'view-a');
    await t.subscriptions.unsubscribe('watch', counter, 'view-b');
    assert.ok(sent(t, 'watch', 'notifications/cancelled').length >= 1, 'the stream was cancelled');
    await t.subscriptions.subscribe('watch', other, 'view-c');
    const mark = updates.length;
    await t.host.callTool('watch', 'bump', { uri: counter });
    await t.host.callTool('watch', 'bump', { uri: other });
    await waitFor('the other update', () => updateOf(updates, 'watch', other, mark));
    assert.equal(updateOf(updates, 'watch', counter, mark), undefined, 'no update after release');
    await t.subscriptions.unsubscribe('watch', other, 'view-c');
  });

  it('sets the log level with logging/setLevel, remembers it and sends it again after a restart', async () => {
    const id = 'every-stdio';
    assert.deepEqual(t.logLevels.get(id), { level: null, available: true });
    assert.deepEqual(await t.logLevels.set(id, 'debug'), { level: 'debug', available: true });
    const first = sent(t, id, 'logging/setLevel');
    assert.equal(first.length, 1);
    assert.match(first[0].json, /"level":"debug"/);
    await t.host.restart(id);
    await waitForState(t.host, id, 'connected');
    await waitFor('setLevel again', () => (sent(t, id, 'logging/setLevel').length === 2 ? true : undefined));
    const file = JSON.parse(await readFile(join(t.dir, 'data', 'log-levels.json'), 'utf8')) as unknown;
    assert.deepEqual(file, { levels: { [id]: 'debug' } });
  });

  it('2026-07-28: says why the log level cannot be set instead of failing', async () => {
    const state = t.logLevels.get('watch');
    assert.equal(state.available, false);
    assert.match(state.reason ?? '', /2026-07-28.*per request/);
    const err = await rejection(t.logLevels.set('watch', 'debug'));
    assert.equal(err.code, 'unavailable');
    assert.equal(sent(t, 'watch', 'logging/setLevel').length, 0);
  });
});
