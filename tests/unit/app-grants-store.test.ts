/**
 * The MCP Apps section of the policy store: a server's device-permission grants and its
 * "show interactive views" switch persist in apps.json, unknown names and a bad file lose only
 * themselves, and forgetting a server (removed) drops everything about it.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { AppGrantsStore } from '../../electron/host/policies/app-grants-store.js';

test('grants and the views switch persist; defaults are not stored', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-desk-apps-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'apps.json');
  const store = await AppGrantsStore.open(path);
  let changes = 0;
  store.onChange(() => changes++);
  assert.equal(store.viewsEnabled('a'), true, 'on by default');
  assert.deepEqual(await store.setPermissions('a', ['microphone', 'camera']), ['camera', 'microphone']);
  await store.setViewsEnabled('b', false);
  await store.setViewsEnabled('c', true);
  await store.flush();
  assert.equal(changes, 3);
  const onDisk = JSON.parse(await readFile(path, 'utf8')) as { servers: Record<string, unknown> };
  assert.deepEqual(Object.keys(onDisk.servers).sort(), ['a', 'b'], 'c is at the defaults: no entry');

  const reopened = await AppGrantsStore.open(path);
  assert.deepEqual(reopened.permissions('a'), ['camera', 'microphone']);
  assert.equal(reopened.viewsEnabled('b'), false);
  assert.deepEqual(
    reopened.grants().map((g) => [g.serverId, g.permissions, g.viewsEnabled]),
    [
      ['a', ['camera', 'microphone'], true],
      ['b', [], false],
    ],
  );
  await reopened.setPermissions('a', []);
  await reopened.forget('b');
  assert.deepEqual(reopened.grants(), []);
});

test('a bad file or an unknown permission name reads as nothing granted', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-desk-apps-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'apps.json');
  await writeFile(
    path,
    JSON.stringify({ version: 1, servers: { a: { permissions: ['camera', 'root'] }, b: 7 } }),
  );
  const warnings: string[] = [];
  const store = await AppGrantsStore.open(path, (m) => warnings.push(m));
  assert.deepEqual(store.permissions('a'), ['camera']);
  assert.equal(store.viewsEnabled('b'), true);
  await writeFile(path, '{ not json');
  const broken = await AppGrantsStore.open(path, (m) => warnings.push(m));
  assert.deepEqual(broken.permissions('a'), []);
  assert.equal(warnings.length, 1);
});
