/**
 * The 2026-07-28 protocol era (stateless, `server/discover`) over stdio and Streamable
 * HTTP: the host negotiates it by itself and every feature works the same as on 2025.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CleanupStack,
  connectedInfo,
  createTestHost,
  nodeServer,
  SERVERS,
  startModernHttp,
  summaryOf,
  textOf,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';

describe('2026-07-28 era servers', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  let t: TestHost;
  const asked: { serverId: string; message: string }[] = [];

  before(async () => {
    const http = await startModernHttp(stack);
    t = await createTestHost(stack, {
      // A person who always answers "zoe": the input_required round trip reaches the handler.
      handlers: {
        elicit: async (serverId, request) => {
          asked.push({ serverId, message: request.message });
          return { action: 'accept', content: { name: 'zoe' } };
        },
      },
      servers: { 'modern-stdio': nodeServer(SERVERS.modern), 'modern-http': { url: `${http.origin}/mcp` } },
    });
    await Promise.all([
      waitForState(t.host, 'modern-stdio', 'connected'),
      waitForState(t.host, 'modern-http', 'connected'),
    ]);
  });
  after(() => stack.run());

  for (const id of ['modern-stdio', 'modern-http']) {
    describe(id, () => {
      it('negotiates the modern era', () => {
        const s = summaryOf(t.host, id);
        const info = connectedInfo(s);
        assert.equal(info.protocolEra, 'modern');
        assert.equal(info.protocolVersion, '2026-07-28');
        assert.equal(info.name, 'modern-fixture');
        assert.equal(s.transport, id === 'modern-stdio' ? 'stdio' : 'http');
        assert.deepEqual(s.counts, { tools: 7, resources: 1, templates: 0, prompts: 1 });
      });

      it('calls tools', async () => {
        assert.equal(textOf(await t.host.callTool(id, 'echo', { message: `hi ${id}` })), `hi ${id}`);
        assert.equal(textOf(await t.host.callTool(id, 'whoami', {})), 'modern');
      });

      it('reads a resource', async () => {
        const res = await t.host.readResource(id, 'fixture://hello');
        assert.equal(res.contents[0]?.text, 'hello');
      });

      it('gets a prompt', async () => {
        const got = await t.host.getPrompt(id, 'greet', { name: 'alice' });
        const c = got.messages[0]?.content;
        assert.ok(c?.type === 'text' && c.text === 'Please greet alice.', JSON.stringify(got));
      });

      it('completes a prompt argument', async () => {
        const done = await t.host.complete(
          id,
          { type: 'ref/prompt', name: 'greet' },
          { name: 'name', value: 'al' },
        );
        assert.deepEqual([...done.values].sort(), ['albert', 'alice']);
      });

      it('fulfils an input_required elicitation through the host handler', async () => {
        const before = asked.length;
        assert.equal(textOf(await t.host.callTool(id, 'ask-name', {})), 'hello zoe');
        assert.deepEqual(asked.slice(before), [{ serverId: id, message: 'What is your name?' }]);
      });

      it('sends no 2025 initialize handshake', () => {
        const methods = t.host.trace(id).map((e) => e.method);
        assert.ok(!methods.includes('initialize'), methods.join(','));
      });
    });
  }
});
