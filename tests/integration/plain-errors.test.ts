/**
 * Errors in plain language first (issue 12 item 10), from real failures: a command that does not
 * exist, a closed port, a port fetch refuses, a host that does not resolve, and a model API that
 * cannot be reached. Each message says the cause and the next step; the raw text rides along
 * as details.technical and the code stays secondary.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { ServerConfig } from '../../shared/domain/server-config.js';
import type { HostError } from '../../shared/ipc/host-error.js';
import { ProviderError, type StreamRequest } from '../../electron/host/chat/provider.js';
import { GeminiProvider } from '../../electron/host/chat/providers/gemini/gemini-provider.js';
import { OpenAiProvider } from '../../electron/host/chat/providers/openai-provider.js';
import { describeState } from '../../electron/headless/cli-output.js';
import { CleanupStack, createTestHost, waitForState, type TestHost } from '../helpers/host-harness.js';

/** A port nothing listens on: bound once by us, then closed. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const request = (): StreamRequest => ({
  model: 'm',
  messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
  tools: [],
  signal: new AbortController().signal,
});

async function providerFailure(run: () => AsyncIterable<unknown>): Promise<ProviderError> {
  try {
    for await (const _ of run()) {
      // Draining until it throws.
    }
  } catch (error) {
    assert.ok(error instanceof ProviderError, String(error));
    return error;
  }
  assert.fail('the provider did not fail');
}

describe('errors in plain language', { timeout: 90_000 }, () => {
  const stack = new CleanupStack();
  let t: TestHost;
  before(async () => {
    t = await createTestHost(stack);
  });
  after(() => stack.run());

  async function failedWith(name: string, config: ServerConfig): Promise<HostError> {
    await t.host.add(name, config);
    const s = await waitForState(t.host, name, 'failed');
    assert.ok(s.state.kind === 'failed');
    return s.state.error;
  }

  it('says a missing command is not found, and what to check', async () => {
    const e = await failedWith('nocmd', { command: 'mcp-desk-no-such-command-xyz' });
    assert.equal(e.message, 'Command not found: mcp-desk-no-such-command-xyz — is it installed and on PATH?');
    assert.equal(e.code, 'enoent');
    assert.match(e.details?.technical ?? '', /ENOENT/);
    assert.match(e.details?.hint ?? '', /absolute path/);
    // The CLI prints the hint too, on the same line.
    const s = t.host.list().find((x) => x.id === 'nocmd');
    assert.ok(s);
    assert.match(describeState(s.state), /^failed: Command not found: .* Hint: if it is installed/);
  });

  it('says a connection was refused, naming the address', async () => {
    const port = await closedPort();
    const e = await failedWith('closed', {
      type: 'http',
      url: `http://127.0.0.1:${port}/mcp`,
    });
    assert.equal(e.message, `Connection refused at 127.0.0.1:${port} — is the server running?`);
    assert.equal(e.code, 'econnrefused');
    assert.match(e.details?.technical ?? '', /fetch failed/);
  });

  it('says port 9 is one that web requests may not use', async () => {
    const e = await failedWith('port9', { type: 'http', url: 'http://127.0.0.1:9/mcp' });
    assert.match(e.message, /^That port is blocked for web requests .* run the server on another port$/);
  });

  it('says a host name does not resolve', async () => {
    const e = await failedWith('dns', { type: 'http', url: 'http://example.invalid/mcp' });
    assert.match(e.message, /^Cannot resolve host example\.invalid( right now)? — check /);
    assert.equal(e.code, 'enotfound');
  });

  it('gives model APIs a plain reason without a "(CODE)." tail', async () => {
    const port = await closedPort();
    const openai = await providerFailure(() =>
      new OpenAiProvider({ baseUrl: `http://127.0.0.1:${port}/v1` }).stream(request()),
    );
    assert.equal(
      openai.message,
      `Could not reach the model server at 127.0.0.1:${port} — nothing is listening there; is the server running, and is the base URL right?`,
    );
    const gemini = await providerFailure(() =>
      new GeminiProvider({ apiKey: 'k', baseUrl: 'http://example.invalid' }).stream(request()),
    );
    assert.match(
      gemini.message,
      /^Could not reach the Gemini API at example\.invalid — its host name does not resolve/,
    );
    for (const m of [openai.message, gemini.message]) assert.doesNotMatch(m, /\(E[A-Z]+\)|\)\.$/);
  });
});
