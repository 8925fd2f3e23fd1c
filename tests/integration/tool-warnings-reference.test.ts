/**
 * Must show 2 (issue 15), second half: the poisoning and shadowing checks over every tool of
 * the real reference servers (server-everything, server-filesystem, server-memory, all three
 * in one catalog so shadowing and mentions compare them) flag nothing; the poisoned fixture
 * next to them is flagged, and shadows server-everything's tools.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { inspectResult } from '../../electron/host/tool-trust/inspect-result.js';
import { inspectTools } from '../../electron/host/tool-trust/inspect-tools.js';
import {
  CleanupStack,
  createTestHost,
  nodeServer,
  REPO_ROOT,
  SERVERS,
  tempDir,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';

const MEMORY = join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
const POISONED = join(REPO_ROOT, 'tests/fixtures/poisoned-tools-server.mjs');

describe('tool warnings over the reference servers', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  let t: TestHost;

  before(async () => {
    assert.ok(existsSync(MEMORY), `${MEMORY} is installed`);
    const dir = await realpath(await tempDir(stack, 'mcp-desk-warn-'));
    t = await createTestHost(stack, {
      servers: {
        everything: nodeServer(SERVERS.everything, ['stdio']),
        filesystem: nodeServer(SERVERS.filesystem, [dir]),
        memory: nodeServer(MEMORY, [], { env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } }),
      },
    });
    await Promise.all(
      ['everything', 'filesystem', 'memory'].map((id) => waitForState(t.host, id, 'connected')),
    );
  });
  after(() => stack.run());

  it('flags nothing on any of their tools', () => {
    const tools = t.host.catalog().tools;
    const count = (id: string) => tools.filter((x) => x.serverId === id).length;
    console.log(
      `reference tools checked: everything ${count('everything')}, filesystem ${count('filesystem')}, memory ${count('memory')}`,
    );
    assert.ok(count('everything') >= 10 && count('filesystem') >= 10 && count('memory') >= 5);
    // As the catalog annotates them (what the UI and the CLI read) and straight from the checks.
    const flagged = tools.filter((x) => (x.trust?.warnings.length ?? -1) !== 0);
    assert.deepEqual(
      flagged.map(
        (x) => `${x.serverId}/${x.tool.name}: ${x.trust?.warnings.map((w) => w.reason).join(' | ')}`,
      ),
      [],
    );
    const direct = [...inspectTools(tools)].filter(([, w]) => w.length > 0);
    assert.deepEqual(direct, []);
  });

  it('flags the poisoned fixture next to them, shadowing included', async () => {
    await t.host.add('poisoned', { command: process.execPath, args: [POISONED] });
    await waitForState(t.host, 'poisoned', 'connected');
    const tools = t.host.catalog().tools;
    const kindsOf = (server: string, name: string) =>
      tools.find((x) => x.serverId === server && x.tool.name === name)?.trust?.warnings.map((w) => w.kind) ??
      [];
    assert.ok(kindsOf('poisoned', 'add').includes('model-instructions'));
    assert.ok(kindsOf('poisoned', 'get_weather').includes('hidden-unicode'));
    assert.ok(kindsOf('poisoned', 'send_report').includes('exfiltration'));
    assert.ok(kindsOf('poisoned', 'translate').includes('hidden-unicode'));
    assert.deepEqual(kindsOf('poisoned', 'echo'), ['shadowing']);
    assert.deepEqual(kindsOf('poisoned', 'get-\u0455um'), ['shadowing']);
    assert.deepEqual(kindsOf('poisoned', 'ping'), []);
    // Shadowing is flagged on both sides: the person may trust either one.
    assert.deepEqual(kindsOf('everything', 'echo'), ['shadowing']);
    assert.deepEqual(kindsOf('everything', 'get-sum'), ['shadowing']);
    // Tool results are inspected too: the fixture's page carries orders for the model.
    const result = await t.host.callTool('poisoned', 'fetch_page', { url: 'https://example.com' });
    assert.ok(inspectResult(result).some((w) => w.kind === 'model-instructions'));
  });
});
