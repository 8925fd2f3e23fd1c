/**
 * `mcp-desk --elicitation …` with server-everything: the headless answers reach the real
 * server (its tool result says what it got), every decision is noted on stderr, and the
 * option works before or after the command.
 */
import assert from 'node:assert/strict';
import { cliWorkspace, runCli, type CliRun } from '../helpers/cli-runner.js';
import { after, before, describe, it } from 'node:test';
import { CleanupStack, nodeServer, SERVERS } from '../helpers/host-harness.js';

type Run = CliRun;

describe('mcp-desk --elicitation', { timeout: 180_000 }, () => {
  const stack = new CleanupStack();
  let dataDir: string;
  let config: string;

  before(async () => {
    ({ config, dataDir } = await cliWorkspace(stack, {
      everything: nodeServer(SERVERS.everything, ['stdio']),
    }));
  });
  after(() => stack.run());

  const cli = (...args: string[]): Promise<Run> => runCli(args, { MCP_DESK_DATA_DIR: dataDir });

  const form = (...opts: string[]) =>
    cli('--config', config, ...opts, 'call', 'everything', 'trigger-elicitation-request', '{}');

  it('cancels with a note when no answer is chosen', async () => {
    const r = await form();
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /User cancelled the elicitation dialog/);
    assert.match(
      r.stderr,
      /elicitation from everything \(form\) cancelled: nobody can answer here; pass --elicitation/,
    );
  });

  it('declines, with the option before the command', async () => {
    const r = await form('--elicitation', 'decline');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /User declined to provide the requested information/);
  });

  it('cancels, with the option after the command', async () => {
    const r = await cli(
      '--config',
      config,
      'call',
      'everything',
      'trigger-elicitation-request',
      '{}',
      '--elicitation=cancel',
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /User cancelled the elicitation dialog/);
  });

  it('accept-defaults never invents a required value: a form whose defaults are incomplete is declined', async () => {
    const r = await form('--elicitation', 'accept-defaults');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /User declined/);
    assert.match(r.stderr, /declined: the defaults do not complete the form \(name is required\)/);
  });

  it('accept-defaults never opens a URL headless', async () => {
    const r = await cli(
      '--config',
      config,
      '--elicitation',
      'accept-defaults',
      'call',
      'everything',
      'trigger-url-elicitation',
      '{"url":"https://example.com/x"}',
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /User declined to open the URL/);
    assert.match(r.stderr, /links are never opened headless \(example\.com\)/);
  });

  it('refuses an unknown answer as bad usage', async () => {
    const r = await form('--elicitation', 'maybe');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--elicitation must be one of accept-defaults, decline, cancel, got "maybe"/);
  });
});
