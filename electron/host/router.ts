import type { HostError } from '../../shared/domain/server-state.js';
import {
  isRequestChannel,
  requestChannels,
  type HostInfo,
  type ParsedRequestOf,
  type RequestChannel,
  type ResponseOf,
} from '../../shared/ipc/contract.js';
import type { HostEvents } from './host-events.js';
import type { McpHost } from './mcp-host.js';
import { describeIssues, HostFailure, toHostError } from './util/errors.js';
import type { Redactor } from './util/redact.js';

type Handlers = { [C in RequestChannel]: (req: ParsedRequestOf<C>) => Promise<ResponseOf<C>> | ResponseOf<C> };

/** The outcome of one routed call, ready to serialise. */
export type RouteResult = { ok: true; value: unknown } | { ok: false; error: HostError };

/**
 * Binds every contract channel to the host. Shared by the Electron IPC gate and the
 * WebSocket bridge, so both validate exactly the same way: unknown channels and payloads
 * that fail their zod schema are refused before any host code runs.
 */
export class HostRouter {
  private readonly handlers: Handlers;

  constructor(host: McpHost, events: HostEvents, info: () => HostInfo, private readonly redactor: Redactor) {
    this.handlers = {
      'host.info': () => info(),
      'servers.list': () => host.list(),
      'servers.add': (r) => host.add(r.name, r.config),
      'servers.update': (r) => host.update(r.id, r.config),
      'servers.remove': async (r) => {
        await host.remove(r.id);
        return null;
      },
      'servers.setEnabled': (r) => host.setEnabled(r.id, r.enabled),
      'servers.restart': (r) => host.restart(r.id),
      'servers.import': (r) => host.import(r.json),
      'servers.log': (r) => host.log(r.id),
      'servers.trace': (r) => host.trace(r.id),
      'catalog.get': () => host.catalog(),
      'tools.call': (r) =>
        host.callTool(r.serverId, r.tool, r.args, {
          callId: r.callId,
          timeoutMs: r.timeoutMs,
          onProgress: (p) => events.emit('tool.progress', { callId: r.callId, ...p }),
        }),
      'tools.cancel': (r) => ({ cancelled: host.cancel(r.callId) }),
      'resources.read': (r) => host.readResource(r.serverId, r.uri),
      'prompts.get': (r) => host.getPrompt(r.serverId, r.name, r.args),
      'completion.complete': (r) => host.complete(r.serverId, r.ref, r.argument, r.context),
    };
  }

  /** Validate and run one request; never throws. */
  async handle(channel: unknown, payload: unknown): Promise<RouteResult> {
    try {
      if (!isRequestChannel(channel)) throw new HostFailure('unknown_channel', `unknown channel "${String(channel).slice(0, 100)}"`);
      return { ok: true, value: await this.dispatch(channel, payload) };
    } catch (error) {
      return { ok: false, error: toHostError(error, this.redactor) };
    }
  }

  private async dispatch<C extends RequestChannel>(channel: C, payload: unknown): Promise<ResponseOf<C>> {
    const parsed = requestChannels[channel].request.safeParse(payload ?? {});
    if (!parsed.success) {
      // Field paths ride along as data so a form can put each message on its field.
      const fields: Record<string, string> = {};
      for (const issue of parsed.error.issues) fields[issue.path.map(String).join('.') || '(root)'] ??= issue.message;
      throw new HostFailure('invalid_request', `${channel}: ${describeIssues(parsed.error.issues)}`, fields);
    }
    const handler = this.handlers[channel] as (req: unknown) => Promise<ResponseOf<C>> | ResponseOf<C>;
    return handler(parsed.data);
  }
}
