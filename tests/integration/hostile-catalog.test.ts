/**
 * Hostile stdio servers, part 4: tool lists. A nameless tool, input schemas that are not
 * objects, 10,000 tools, a 1,000-character name and non-ASCII names: the bad tools alone are
 * dropped (the log names each), the list is capped with a note, the good tools stay callable,
 * and the healthy server beside them keeps working.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LIMITS } from '../../electron/host/util/limits.js';
import {
  assertHealthy,
  cleanUpAndAssertPeakRss,
  hostileServer,
  hostWithHealthy,
} from '../helpers/hostile-harness.js';
import { CleanupStack, textOf, waitForState, type TestHost } from '../helpers/host-harness.js';

describe('hostile stdio servers: tool lists', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  let t: TestHost;

  before(async () => {
    t = await hostWithHealthy(stack);
  });
  after(() => cleanUpAndAssertPeakRss(stack));

  const toolsOf = (id: string) => t.host.catalog().tools.filter((x) => x.serverId === id);
  const logOf = (id: string) =>
    t.host
      .log(id)
      .map((l) => l.text)
      .join('\n');

  it('drops a nameless tool and keeps the others', async () => {
    await t.host.add('nameless', hostileServer({ HOSTILE_TOOLS: 'nameless' }));
    await waitForState(t.host, 'nameless', 'connected');
    assert.match(logOf('nameless'), /tools\/list: dropped tool #\d+: it has no name/);
    assert.ok(toolsOf('nameless').some((x) => x.tool.name === 'echo'));
    assert.equal(textOf(await t.host.callTool('nameless', 'echo', { message: 'named' })), 'named');
    await assertHealthy(t);
    await t.host.remove('nameless');
  });

  it('drops tools whose input schema is not an object schema', async () => {
    await t.host.add('schemas', hostileServer({ HOSTILE_TOOLS: 'bad-schema' }));
    await waitForState(t.host, 'schemas', 'connected');
    const log = logOf('schemas');
    for (const name of ['schema-is-a-string', 'schema-of-type-string', 'schema-missing'])
      assert.match(log, new RegExp(`"${name}": its inputSchema is not a JSON Schema of type "object"`));
    const names = toolsOf('schemas').map((x) => x.tool.name);
    assert.ok(!names.some((n) => n.startsWith('schema-')));
    assert.ok(names.includes('echo'));
    await assertHealthy(t);
    await t.host.remove('schemas');
  });

  it('caps a server listing 10,000 tools, with a note, and the kept ones work', async () => {
    await t.host.add('many', hostileServer({ HOSTILE_TOOLS: 'many' }));
    await waitForState(t.host, 'many', 'connected');
    assert.equal(toolsOf('many').length, LIMITS.toolsPerServer);
    assert.match(
      logOf('many'),
      /lists more than 5,000 tools; MCP Desk keeps the first 5,000 tools \(truncated\)/,
    );
    assert.equal(textOf(await t.host.callTool('many', 'echo', { message: 'one of many' })), 'one of many');
    await assertHealthy(t);
    await t.host.remove('many');
  });

  it('lists and calls tools with a 1,000-character name and non-ASCII names', async () => {
    await t.host.add('names', hostileServer({ HOSTILE_TOOLS: 'names' }));
    await waitForState(t.host, 'names', 'connected');
    const names = toolsOf('names').map((x) => x.tool.name);
    for (const name of ['n'.repeat(1000), 'café-outil', '工具', 'инструмент', '🔧-wrench'])
      assert.ok(names.includes(name), `${name.slice(0, 20)} is listed`);
    for (const name of ['n'.repeat(1000), '工具', '🔧-wrench'])
      assert.equal(textOf(await t.host.callTool('names', name, {})), `called ${name}`);
    await assertHealthy(t);
    await t.host.remove('names');
  });
});
