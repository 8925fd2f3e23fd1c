import { ProtocolError } from '@modelcontextprotocol/client';
import { composeHost } from '../host/compose.js';
import { MemoryConfigStore } from '../host/config/config-store.js';
import { schemaDefaults } from '../host/elicitation/schema-defaults.js';
import { USER_REJECTED } from '../host/sampling/sampling-service.js';
import { toHostError } from '../host/util/errors.js';
import { sampleArguments } from './sample-args.js';

/**
 * `mcp-desk client URL`: the host core driven without a person, for the official
 * conformance runner (which appends the URL and names the scenario in
 * MCP_CONFORMANCE_SCENARIO). It connects as the app would, lists what the server offers,
 * calls each tool with schema-derived arguments, and answers elicitation by accepting the
 * schema's defaults. Nothing is written to disk.
 */
export async function runConformanceClient(url: string | undefined, timeoutMs = 30_000): Promise<number> {
  if (!url) {
    process.stderr.write('usage: mcp-desk client URL\n');
    return 2;
  }
  const log = (text: string) => process.stderr.write(`[client] ${text}\n`);
  const services = await composeHost({
    configPath: '(memory)',
    store: new MemoryConfigStore(),
    mode: 'cli',
    handlers: {
      elicit: async (_server, params) => {
        if (params.mode === 'url') return { action: 'decline' };
        const content = schemaDefaults(params.requestedSchema);
        log(`elicitation accepted with defaults: ${JSON.stringify(content)}`);
        return { action: 'accept', content: content as Record<string, string | number | boolean | string[]> };
      },
      // Nobody is there to review a sampling request, and running a model unreviewed is never
      // a default: refuse at once (the spec's "user rejected") instead of waiting out a review.
      sample: async () => {
        log('sampling request rejected: no person to review it');
        throw new ProtocolError(USER_REJECTED, 'User rejected sampling request: the conformance client has no person to review it');
      },
    },
    backoff: { baseMs: 200, maxMs: 1000, maxAttempts: 0 },
  });
  const { host } = services;
  try {
    await host.init();
    await host.add('target', { url });
    const [s] = await host.whenSettled(timeoutMs);
    if (s?.state.kind !== 'connected') {
      log(`connect failed: ${s?.state.kind === 'failed' ? s.state.error.message : s?.state.kind}`);
      return 1;
    }
    log(`connected (${s.state.info.protocolEra}, ${s.state.info.protocolVersion ?? ''}), scenario ${process.env.MCP_CONFORMANCE_SCENARIO ?? '-'}`);
    const { tools } = host.catalog();
    let failures = 0;
    for (const { tool } of tools) {
      const args = sampleArguments(tool.inputSchema);
      try {
        const result = await host.callTool('target', tool.name, args, { timeoutMs });
        log(`${tool.name}(${JSON.stringify(args)}) -> ${result.isError ? 'isError' : 'ok'}`);
      } catch (error) {
        failures++;
        log(`${tool.name} failed: ${toHostError(error).message}`);
      }
    }
    return failures ? 1 : 0;
  } finally {
    await services.dispose();
  }
}
