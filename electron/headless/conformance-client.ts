import { ProtocolError } from '@modelcontextprotocol/client';
import type { ServerState } from '../../shared/domain/server-state.js';
import { composeHost } from '../host/compose.js';
import { MemoryConfigStore } from '../host/config/config-store.js';
import type { McpHost } from '../host/mcp-host.js';
import { schemaDefaults } from '../host/elicitation/schema-defaults.js';
import { USER_REJECTED } from '../host/sampling/sampling-service.js';
import { toHostError } from '../host/util/errors.js';
import { conformanceAuthProviders, MAX_AUTHORIZATION_ROUNDS } from './conformance-auth.js';
import {
  parseConformanceContext,
  type ConformanceContext,
  type ScenarioToolCall,
} from './conformance-context.js';
import { HeadlessAuthorizer } from './headless-authorizer.js';
import { sampleArguments } from './sample-args.js';

const SERVER = 'target';

/**
 * `mcp-desk client URL`: the host core driven without a person, for the official
 * conformance runner (which appends the URL, names the scenario in MCP_CONFORMANCE_SCENARIO
 * and passes credentials in MCP_CONFORMANCE_CONTEXT). It connects as the app would, signing
 * in with the OAuth flow the server asks for (see conformance-auth.ts), lists what the server
 * offers, calls each tool (with the scenario's own arguments where it gives them, otherwise
 * schema-derived ones), and answers elicitation by accepting the schema's defaults. Tokens
 * live in memory only and are never printed; nothing is written to disk.
 */
export async function runConformanceClient(url: string | undefined, timeoutMs = 30_000): Promise<number> {
  if (!url) {
    process.stderr.write('usage: mcp-desk client URL\n');
    return 2;
  }
  const log = (text: string) => process.stderr.write(`[client] ${text}\n`);
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  let context: ConformanceContext;
  try {
    context = parseConformanceContext(process.env.MCP_CONFORMANCE_CONTEXT);
  } catch (error) {
    log((error as Error).message);
    return 2;
  }
  const authorizer = new HeadlessAuthorizer(log);
  const services = await composeHost({
    configPath: '(memory)',
    store: new MemoryConfigStore(),
    mode: 'cli',
    authProviderFor: conformanceAuthProviders(scenario, context, authorizer),
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
        throw new ProtocolError(
          USER_REJECTED,
          'User rejected sampling request: the conformance client has no person to review it',
        );
      },
    },
    backoff: { baseMs: 200, maxMs: 1000, maxAttempts: 0 },
  });
  const { host } = services;
  const signIn = new SignIn(host, authorizer, log, timeoutMs);
  try {
    await host.init();
    await host.add(SERVER, { url });
    const state = await signIn.connect();
    if (state.kind !== 'connected') {
      log(`connect failed: ${describe(state)}`);
      return 1;
    }
    log(
      `connected (${state.info.protocolEra}, ${state.info.protocolVersion ?? ''}), scenario ${scenario || '-'}`,
    );
    let failures = 0;
    for (const call of plannedCalls(host, scenario, context.toolCalls)) {
      const args = call.arguments ?? {};
      try {
        const result = await signIn.retrying(() => host.callTool(SERVER, call.name, args, { timeoutMs }));
        log(`${call.name} -> ${result.isError ? 'isError' : 'ok'}`);
      } catch (error) {
        failures++;
        log(`${call.name} failed: ${toHostError(error).message}`);
      }
    }
    return failures ? 1 : 0;
  } finally {
    await services.dispose();
  }
}

/** The scenario's own calls when it names them, else every listed tool with sample arguments. */
function plannedCalls(
  host: McpHost,
  scenario: string,
  fromContext: ScenarioToolCall[] | undefined,
): ScenarioToolCall[] {
  if (fromContext?.length) return fromContext;
  const tools = host.catalog().tools.map(({ tool }) => tool);
  const echo = SCHEMA_ECHO[scenario];
  return tools.map((tool) => {
    // The scenario asks for one tool's input schema, exactly as our catalog holds it, to be
    // passed to another tool, so it can see which JSON Schema keywords survived.
    if (echo && tool.name === echo.echoTool) {
      const focal = tools.find((t) => t.name === echo.focalTool);
      return { name: tool.name, arguments: { schema: focal?.inputSchema ?? {} } };
    }
    return { name: tool.name, arguments: sampleArguments(tool.inputSchema) };
  });
}

/** Scenarios that check schema preservation by an echo (SEP-1613, SEP-2106). */
const SCHEMA_ECHO: Record<string, { focalTool: string; echoTool: string }> = {
  'json-schema-2020-12-preservation': { focalTool: 'json_schema_2020_12_tool', echoTool: 'json_schema_echo' },
};

function describe(state: ServerState): string {
  switch (state.kind) {
    case 'failed':
      return state.error.message;
    case 'reconnecting':
      return state.lastError.message;
    case 'auth-required':
      return `sign-in needed: ${state.message}`;
    default:
      return state.kind;
  }
}

/**
 * Completes sign-ins for the one server: after a connect or a call stopped at an authorization
 * redirect, hand the approved callback to McpHost.finishAuth (which exchanges the code,
 * checking `iss`, and reconnects) and carry on; never more than MAX_AUTHORIZATION_ROUNDS.
 */
class SignIn {
  constructor(
    private readonly host: McpHost,
    private readonly authorizer: HeadlessAuthorizer,
    private readonly log: (text: string) => void,
    private readonly timeoutMs: number,
  ) {}

  /** Connects, signing in as often as the server asks (within the cap); returns the final state. */
  async connect(): Promise<ServerState> {
    let state = await this.settled();
    for (let round = 0; state.kind === 'auth-required' && round < MAX_AUTHORIZATION_ROUNDS; round++) {
      if (!(await this.finish())) break;
      state = await this.settled();
    }
    return state;
  }

  /** Runs `op`; when it failed because a (step-up) sign-in was started, finishes that and runs it again. */
  async retrying<T>(op: () => Promise<T>): Promise<T> {
    for (let round = 0; ; round++) {
      try {
        return await op();
      } catch (error) {
        const callback = round < MAX_AUTHORIZATION_ROUNDS ? this.authorizer.takeCallback(SERVER) : undefined;
        if (!callback) throw error;
        this.log('the server asked for another sign-in (step-up); completing it');
        await this.host.finishAuth(SERVER, callback);
        const state = await this.connect();
        if (state.kind !== 'connected') throw error;
      }
    }
  }

  /** Exchanges the pending callback's code; false when there is none or the exchange is refused. */
  private async finish(): Promise<boolean> {
    const callback = this.authorizer.takeCallback(SERVER);
    if (!callback) {
      this.log(
        `no approved authorization to complete${this.authorizer.failure(SERVER) ? ` (${this.authorizer.failure(SERVER)})` : ''}`,
      );
      return false;
    }
    try {
      await this.host.finishAuth(SERVER, callback);
      return true;
    } catch (error) {
      // IssuerMismatchError lands here: a mix-up is refused before the code is sent anywhere.
      this.log(`sign-in refused: ${toHostError(error).message}`);
      return false;
    }
  }

  /** Waits until the server is connected, failed, disabled or waiting for a sign-in. */
  private async settled(): Promise<ServerState> {
    const done = (s: ServerState) =>
      s.kind === 'connected' || s.kind === 'failed' || s.kind === 'disabled' || s.kind === 'auth-required';
    const started = Date.now();
    for (;;) {
      const state = this.host.list().find((s) => s.id === SERVER)?.state ?? { kind: 'disabled' };
      if (done(state) || Date.now() - started > this.timeoutMs) return state;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}
