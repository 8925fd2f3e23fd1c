import type {
  Client,
  ClientCapabilities,
  CreateMessageRequest,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitRequest,
  ElicitResult,
  Root,
} from '@modelcontextprotocol/client';
import { ProtocolError } from '@modelcontextprotocol/client';
import type { ServerInfo } from '../../../shared/domain/mcp-types.js';
import { MCP_APP_MIME, MCP_APPS_EXTENSION } from '../../../shared/domain/mcp-apps.js';
import { LIMITS, OVER_CAP_RPC_CODE } from '../util/limits.js';
import type { OpenedClient } from './client-factory.js';
import type { ServerOutput } from './server-output.js';

/**
 * The client side of one MCP session, apart from the connection's state machine: what we
 * declare, how server-to-client requests are answered, and how a server is described
 * (close-session.ts closes it).
 */

/** Answers for requests a server sends us; absent ones are not declared as capabilities. */
export interface ServerRequestHandlers {
  elicit?: (serverId: string, request: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>;
  /** sampling/createMessage (pushed, or an input_required round); declared with tool support. */
  sample?: (
    serverId: string,
    request: CreateMessageRequest['params'],
    signal: AbortSignal,
  ) => Promise<CreateMessageResult | CreateMessageResultWithTools>;
  /** roots/list (pushed on 2025 connections, or an input_required round on 2026-07-28); declared with listChanged. */
  listRoots?: () => Root[];
  /** notifications/resources/updated (a 2025 subscription or a 2026-07-28 listen stream); declares nothing. */
  resourceUpdated?: (serverId: string, uri: string) => void;
}

/**
 * Exactly the capabilities we can answer: a handler present means a capability declared.
 * MCP Apps views are always rendered (a server without them may register text-only tools).
 * Tasks always (tasks/task-service.ts follows them): 2025-11-25 `tasks` with no request types of
 * our own to run as tasks, and the 2026-07-28 extension, which lets a server answer tools/call
 * with one.
 */
export function clientCapabilities(handlers: ServerRequestHandlers): ClientCapabilities {
  const caps: ClientCapabilities = {
    tasks: {},
    extensions: {
      [MCP_APPS_EXTENSION]: { mimeTypes: [MCP_APP_MIME] },
      'io.modelcontextprotocol/tasks': {},
    },
  };
  if (handlers.elicit) caps.elicitation = { form: {}, url: {} };
  if (handlers.sample) caps.sampling = { tools: {} };
  if (handlers.listRoots) caps.roots = { listChanged: true };
  return caps;
}

/**
 * Route the server's requests to our handlers and its log messages to the server's log. At
 * most LIMITS.serverRequestsInFlight of the server's requests wait at once: a server asking
 * in a tight loop gets the rest refused with a JSON-RPC error saying why, instead of growing a
 * queue (and a pile of dialogs) without end.
 */
export function installHandlers(
  serverId: string,
  handlers: ServerRequestHandlers,
  output: ServerOutput,
  client: Client,
): void {
  const { elicit, sample, listRoots } = handlers;
  // One gate per method: forms waiting for a person must not hold up sampling, or the reverse.
  if (elicit) {
    const gate = requestGate(serverId, 'elicitation/create', output);
    client.setRequestHandler('elicitation/create', (request, ctx) =>
      gate(() => elicit(serverId, request.params, ctx.mcpReq.signal)),
    );
  }
  if (sample) {
    const gate = requestGate(serverId, 'sampling/createMessage', output);
    client.setRequestHandler('sampling/createMessage', (request, ctx) =>
      gate(() => sample(serverId, request.params, ctx.mcpReq.signal)),
    );
  }
  // roots/list is answered on the spot: nothing waits, so there is no queue to cap.
  if (listRoots) client.setRequestHandler('roots/list', () => ({ roots: listRoots() }));
  const { resourceUpdated } = handlers;
  if (resourceUpdated)
    client.setNotificationHandler('notifications/resources/updated', (n) =>
      resourceUpdated(serverId, n.params.uri),
    );
  client.setNotificationHandler('notifications/message', (n) => {
    const data = typeof n.params.data === 'string' ? n.params.data : JSON.stringify(n.params.data);
    output.note(`[${n.params.level}]${n.params.logger ? ` ${n.params.logger}:` : ''} ${data}`, 'server-log');
  });
}

/** Counts one server's requests of one method in flight and refuses those over the cap. */
function requestGate(serverId: string, method: string, output: ServerOutput) {
  const cap = LIMITS.serverRequestsInFlight;
  let inFlight = 0;
  let refused = 0;
  return async <T>(run: () => Promise<T> | T): Promise<T> => {
    if (inFlight >= cap) {
      // One note per burst: the count goes in when the burst ends.
      if (refused++ === 0)
        output.note(
          `refusing ${method} and more: this server already has ${cap} requests waiting (the limit)`,
        );
      throw new ProtocolError(
        OVER_CAP_RPC_CODE,
        `MCP Desk refused ${method}: server "${serverId}" already has ${cap} requests waiting for an answer (the limit); wait for those to finish`,
      );
    }
    inFlight++;
    try {
      return await run();
    } finally {
      inFlight--;
      if (inFlight === 0 && refused > 0) {
        output.note(
          `refused ${refused.toLocaleString('en-US')} ${method} requests over the limit of ${cap} waiting at once`,
        );
        refused = 0;
      }
    }
  };
}

/**
 * Tell the server our roots changed. Only a 2025-era connection has a channel for unsolicited
 * notifications; a 2026-07-28 connection is stateless and the SDK offers nothing to push there
 * — such a server asks through an input_required round on its next call and then receives the
 * current list, so there is nothing to send. Returns whether a notification went out.
 */
export async function pushRootsListChanged(
  client: Client,
  onError: (error: unknown) => void,
): Promise<boolean> {
  if ((client.getProtocolEra() ?? 'legacy') !== 'legacy') return false;
  try {
    await client.sendRootsListChanged();
    return true;
  } catch (error) {
    // A server that dropped mid-send reconnects and fetches the list afresh anyway.
    onError(error);
    return false;
  }
}

/** What the UI shows about a connected server. */
export function describeServer(serverId: string, opened: OpenedClient): ServerInfo {
  const c = opened.client;
  const v = c.getServerVersion();
  return {
    name: v?.name ?? serverId,
    version: v?.version ?? '',
    ...(v?.title ? { title: v.title } : {}),
    ...(v?.description ? { description: v.description } : {}),
    protocolEra: c.getProtocolEra() ?? 'legacy',
    protocolVersion: c.getNegotiatedProtocolVersion(),
    ...(c.getInstructions() ? { instructions: c.getInstructions() } : {}),
    capabilities: c.getServerCapabilities() ?? {},
  };
}
