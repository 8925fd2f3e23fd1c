/**
 * `mcp-desk --sampling …` with server-everything and the fake Gemini: approve runs the
 * server's request on the configured model (honouring --model and --base-url, the key from
 * GEMINI_API_KEY), deny and the default refuse it, and the option works before or after the
 * command.
 */
import assert from 'node:assert/strict';
import { cliWorkspace, runCli, type CliRun } from '../helpers/cli-runner.js';
import { after, before, describe, it } from 'node:test';
import { reply, text, type FakeGemini, type RecordedRequest } from '../fixtures/fake-gemini.js';
import { startFakeModel } from '../helpers/fake-model.js';
import { CleanupStack, nodeServer, SERVERS } from '../helpers/host-harness.js';

const KEY = 'fake-key-for-cli-sampling';

type Run = CliRun;

function lastUserText(r: RecordedRequest): string {
  const users = (r.body?.contents ?? []).filter((c) => c.role === 'user');
  return (users.at(-1)?.parts ?? []).map((p) => (typeof p.text === 'string' ? p.text : '')).join('');
}

describe('mcp-desk --sampling', { timeout: 180_000 }, () => {
  const stack = new CleanupStack();
  let dataDir: string;
  let config: string;
  let fake: FakeGemini;

  before(async () => {
    ({ config, dataDir } = await cliWorkspace(stack, {
      everything: nodeServer(SERVERS.everything, ['stdio']),
    }));
    fake = await startFakeModel(stack, KEY, (r) => reply(text(`CLI-FAKE:${lastUserText(r)}`)));
  });
  after(() => stack.run());

  const cli = (...args: string[]): Promise<Run> =>
    runCli(args, { MCP_DESK_DATA_DIR: dataDir, GEMINI_API_KEY: KEY, MCP_DESK_GEMINI_BASE_URL: '' });

  const trigger = (prompt: string) => [
    'call',
    'everything',
    'trigger-sampling-request',
    JSON.stringify({ prompt }),
  ];

  it('approve: runs the request on the fake model and returns its text (option before the command)', async () => {
    const before = fake.generateRequests().length;
    const r = await cli(
      '--config',
      config,
      '--sampling',
      'approve',
      ...trigger('hi'),
      '--base-url',
      fake.baseUrl,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /CLI-FAKE:Resource trigger-sampling-request context: hi/);
    assert.match(r.stdout, /"model": "gemini-2.5-flash"/);
    assert.match(r.stderr, /sampling request from everything: approved, running on gemini-2\.5-flash/);
    assert.match(r.stderr, /sampling reply from everything: approved/);
    const sent = fake.generateRequests().slice(before);
    assert.equal(sent.length, 1);
    assert.equal(sent[0].apiKey, KEY);
    assert.equal(lastUserText(sent[0]), 'Resource trigger-sampling-request context: hi');
  });

  it('approve honours --model (option after the command)', async () => {
    const before = fake.generateRequests().length;
    const r = await cli(
      '--config',
      config,
      ...trigger('model check'),
      '--sampling=approve',
      '--model',
      'gemini-2.5-pro',
      '--base-url',
      fake.baseUrl,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /"model": "gemini-2.5-pro"/);
    assert.equal(fake.generateRequests().slice(before)[0]?.model, 'gemini-2.5-pro');
  });

  it('deny: the server hears the refusal and the model is never asked', async () => {
    const before = fake.generateRequests().length;
    const r = await cli(
      '--config',
      config,
      ...trigger('no'),
      '--sampling',
      'deny',
      '--base-url',
      fake.baseUrl,
    );
    assert.match(r.stdout + r.stderr, /User rejected sampling request/);
    assert.match(r.stderr, /sampling request from everything: denied/);
    assert.equal(fake.generateRequests().length, before);
  });

  it('without the flag: denied with a note saying how to choose', async () => {
    const before = fake.generateRequests().length;
    const r = await cli('--config', config, ...trigger('default'), '--base-url', fake.baseUrl);
    assert.match(r.stdout + r.stderr, /User rejected sampling request/);
    assert.match(
      r.stderr,
      /sampling request from everything denied: nobody can review it here; pass --sampling approve\|deny/,
    );
    assert.equal(fake.generateRequests().length, before);
  });

  it('rejects a bad value with usage exit code 2', async () => {
    const r = await cli('--config', config, '--sampling', 'maybe', 'servers');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--sampling must be one of approve, deny, got "maybe"/);
  });
});
