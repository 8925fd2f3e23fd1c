/**
 * Flow labels (issue 23): defaults from annotations, names, descriptions and input schemas,
 * unknown kept unknown (and held as a possible sink), and a person's overrides.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFile, writeFile } from 'node:fs/promises';
import { test } from 'node:test';
import { heldWhenTainted, type ToolFlow } from '../../shared/domain/flows.js';
import type { Tool } from '../../shared/domain/mcp-types.js';
import { defaultFlow, overriddenFlow } from '../../electron/host/policies/flow-labels.js';
import { FlowOverridesStore } from '../../electron/host/policies/flow-overrides-store.js';
import { nameWords } from '../../electron/host/policies/flow-signals.js';
import { CleanupStack, tempDir } from '../helpers/host-harness.js';

const tool = (name: string, extra: Partial<Tool> = {}, properties: Record<string, unknown> = {}): Tool => ({
  name,
  inputSchema: { type: 'object', properties },
  ...extra,
});
const labels = (t: Tool): string => {
  const f = defaultFlow(t);
  return [...f.labels, ...(f.unknown ? ['unknown'] : [])].join(',') || 'none';
};

test('annotations: read-only is no sink, a write or a destructive hint is one, open world is a source', () => {
  assert.equal(
    labels(tool('get_sum', { annotations: { readOnlyHint: true, openWorldHint: false } })),
    'none',
  );
  assert.equal(labels(tool('toggle_x', { annotations: { readOnlyHint: false } })), 'sink');
  assert.equal(labels(tool('purge', { annotations: { destructiveHint: true } })), 'sink');
  assert.equal(
    labels(tool('lookup', { annotations: { readOnlyHint: true, openWorldHint: true } })),
    'source',
  );
  assert.equal(labels(tool('post_it', { annotations: { openWorldHint: true } })), 'source,sink');
});

test('names, descriptions and schemas give labels; danger wins over a read-only claim', () => {
  assert.equal(labels(tool('list_events')), 'source,unknown');
  assert.equal(labels(tool('read_inbox', { annotations: { readOnlyHint: true } })), 'source');
  assert.equal(labels(tool('send_message')), 'sink', 'acting on a message does not read one');
  assert.equal(labels(tool('fetch')), 'source,sink', 'fetching reads and reaches out');
  assert.equal(labels(tool('read_text_file', { annotations: { readOnlyHint: true } })), 'sensitive');
  assert.equal(
    labels(tool('get-env', { description: 'Returns all environment variables' })),
    'sensitive,unknown',
  );
  assert.equal(
    labels(tool('helper', { annotations: { readOnlyHint: true } }, { command: { type: 'string' } })),
    'sink',
    'a read-only claim does not undo a command parameter',
  );
  assert.equal(labels(tool('notify', {}, { to: {}, body: {} })), 'sink');
  assert.equal(labels(tool('get', {}, { url: {} })), 'source,sink');
  assert.equal(
    labels(tool('runner', { description: 'Executes arbitrary shell commands on the host.' })),
    'sink',
  );
  assert.equal(
    labels(
      tool('scan', {
        description: 'Fetches web pages and returns their text.',
        annotations: { readOnlyHint: true },
      }),
    ),
    'source',
  );
  assert.deepEqual(nameWords('readTextFile'), ['read', 'text', 'file']);
  assert.deepEqual(nameWords('get-resource.links'), ['get', 'resource', 'links']);
});

test('openWorldHint: false keeps a tool’s words from making it a source, and says so', () => {
  const f = defaultFlow(
    tool('get-annotated-message', { annotations: { readOnlyHint: true, openWorldHint: false } }),
  );
  assert.deepEqual(f.labels, []);
  assert.ok(f.reasons.some((r) => r.label === 'not-source'));
  assert.ok(f.reasons.some((r) => r.label === 'not-sink'));
});

test('a tool nothing speaks for stays unknown, which a tainted chat holds as a possible sink', () => {
  const f = defaultFlow(tool('frobnicate'));
  assert.deepEqual(f.labels, []);
  assert.equal(f.unknown, true);
  assert.equal(heldWhenTainted(f), true);
  assert.ok(f.reasons.some((r) => r.label === 'unknown'));
  assert.equal(heldWhenTainted(defaultFlow(tool('x', { annotations: { readOnlyHint: true } }))), false);
});

test('an override replaces the defaults: "none" is known safe, the origin says who set it', () => {
  const none: ToolFlow = overriddenFlow({ serverId: 's', tool: 't', labels: [] });
  assert.deepEqual([none.labels, none.unknown, none.origin], [[], false, 'tool']);
  assert.equal(heldWhenTainted(none), false);
  const server = overriddenFlow({ serverId: 's', labels: ['sink', 'source'] });
  assert.deepEqual([server.labels, server.origin], [['source', 'sink'], 'server']);
});

test('overrides persist per tool and per server; the tool’s wins; a broken file falls back to the defaults', async () => {
  const stack = new CleanupStack();
  try {
    const dir = await tempDir(stack);
    const path = join(dir, 'flows.json');
    const store = await FlowOverridesStore.open(path);
    await store.set('srv', undefined, ['sink']);
    await store.set('srv', 'safe', []);
    await store.flush();
    const again = await FlowOverridesStore.open(path);
    assert.deepEqual(again.lookup('srv', 'safe')?.labels, []);
    assert.deepEqual(again.lookup('srv', 'other')?.labels, ['sink']);
    assert.equal(again.lookup('else', 'x'), undefined);
    assert.equal(await again.set('srv', 'safe', null), true);
    assert.deepEqual(again.lookup('srv', 'safe')?.labels, ['sink'], 'back to the server’s override');
    assert.equal(await again.set('srv', 'safe', null), false, 'nothing left to clear');
    await again.forget('srv');
    assert.deepEqual(again.list(), []);

    const raw = JSON.parse(await readFile(path, 'utf8')) as { version: number };
    assert.equal(raw.version, 1);
    await writeFile(path, '{ not json');
    const warnings: string[] = [];
    const broken = await FlowOverridesStore.open(path, (m) => warnings.push(m));
    assert.deepEqual(broken.list(), []);
    assert.match(warnings[0] ?? '', /default labels/);
  } finally {
    await stack.run();
  }
});
