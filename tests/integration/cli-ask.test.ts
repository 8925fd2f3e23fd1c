/**
 * `mcp-desk ask` headless against the wire-exact fake Gemini and real server-everything:
 * streamed text on stdout, tool calls on stderr, approvals denied unless --yes, and the
 * --json summary as the last line.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cliWorkspace, runCli } from '../helpers/cli-runner.js';
import { functionCall, partsOf, reply, splitText, text, type FakeGemini } from '../fixtures/fake-gemini.js';
import { startFakeModel } from '../helpers/fake-model.js';
import { CleanupStack, nodeServer, SERVERS } from '../helpers/host-harness.js';

const KEY = 'cli-ask-fake-key-42';

describe('mcp-desk ask', { timeout: 180_000 }, () => {
  const stack = new CleanupStack();
  let fake: FakeGemini;
  let config: string;
  let dataDir: string;

  before(async () => {
    ({ config, dataDir } = await cliWorkspace(stack, {
      everything: nodeServer(SERVERS.everything, ['stdio']),
    }));
    fake = await startFakeModel(stack, KEY);
  });
  after(() => stack.run());

  const ask = (...args: string[]) =>
    runCli(args, { GEMINI_API_KEY: KEY, MCP_DESK_DATA_DIR: dataDir }, 90_000);

  it('with --yes runs the tool and prints the summary as the last line', async () => {
    fake.enqueue(
      reply(...splitText('Echoing now. ', 2), functionCall('everything__echo', { message: 'from cli' })),
      reply(...splitText('It said: Echo: from cli', 3)),
    );
    const before = fake.generateRequests().length;
    const r = await ask(
      '--config',
      config,
      'ask',
      'please echo',
      '--yes',
      '--json',
      '--base-url',
      fake.baseUrl,
      '--model',
      'gemini-test-model',
    );
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    const summary = JSON.parse(lines.at(-1)!) as {
      text: string;
      toolCalls: { server: string; tool: string; args: unknown; isError: boolean }[];
    };
    assert.match(summary.text, /Echoing now\. [\s\S]*It said: Echo: from cli/);
    assert.deepEqual(summary.toolCalls, [
      { server: 'everything', tool: 'echo', args: { message: 'from cli' }, isError: false },
    ]);
    assert.match(r.stdout, /It said: Echo: from cli/, 'streamed text on stdout');
    assert.match(r.stderr, /everything\/echo/, 'tool calls on stderr');
    const requests = fake.generateRequests().slice(before);
    assert.equal(requests[0]?.model, 'gemini-test-model');
    assert.match(JSON.stringify(partsOf(requests[1]).map((p) => p.part)), /Echo: from cli/);
  });

  it('without --yes the call needing approval is denied and reported', async () => {
    fake.enqueue(
      reply(functionCall('everything__echo', { message: 'nope' })),
      reply(text('I was not allowed.')),
    );
    const r = await ask('ask', 'echo nope', '--config', config, '--json', '--base-url', fake.baseUrl);
    assert.equal(r.code, 0, r.stderr);
    const summary = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { toolCalls: { isError: boolean }[] };
    assert.equal(summary.toolCalls[0]?.isError, true);
    assert.match(r.stderr, /denied \(pass --yes to allow\)/);
  });

  it('a bad key fails with a one-line reason that does not contain the key', async () => {
    const r = await runCli(['ask', 'hi', '--config', config, '--base-url', fake.baseUrl], {
      GEMINI_API_KEY: 'wrong-key-abcdef',
      MCP_DESK_DATA_DIR: dataDir,
    });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /API key/i);
    assert.doesNotMatch(r.stderr, /wrong-key-abcdef/);
  });
});
