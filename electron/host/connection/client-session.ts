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
import type { ServerInfo } from '../../../shared/domain/mcp-types.js';
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
}

/** Exactly the capabilities we can answer: a handler present means a capability declared. */
export function clientCapabilities(handlers: ServerRequestHandlers): ClientCapabilities {
  const caps: ClientCapabilities = {};
  if (handlers.elicit) caps.elicitation = { form: {}, url: {} };
  if (handlers.sample) caps.sampling = { tools: {} };
  if (handlers.listRoots) caps.roots = { listChanged: true };
  return caps;
}

/** Route the server's requests to our handlers and its log messages to the server's log. */
export function installHandlers(
  serverId: string,
  handlers: ServerRequestHandlers,
  output: ServerOutput,
  client: Client,
): void {
  const { elicit, sample, listRoots } = handlers;
  if (elicit)
    client.setRequestHandler('elicitation/create', (request, ctx) =>
      elicit(serverId, request.params, ctx.mcpReq.signal),
    );
  if (sample)
    client.setRequestHandler('sampling/createMessage', (request, ctx) =>
      sample(serverId, request.params, ctx.mcpReq.signal),
    );
  if (listRoots) client.setRequestHandler('roots/list', () => ({ roots: listRoots() }));
  client.setNotificationHandler('notifications/message', (n) => {
    const data = typeof n.params.data === 'string' ? n.params.data : JSON.stringify(n.params.data);
    output.note(`[${n.params.level}]${n.params.logger ? ` ${n.params.logger}:` : ''} ${data}`, 'server-log');
  });
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
    protocolEra: c.getProtocolEra() ?? 'legacy',
    protocolVersion: c.getNegotiatedProtocolVersion(),
    ...(c.getInstructions() ? { instructions: c.getInstructions() } : {}),
    capabilities: c.getServerCapabilities() ?? {},
  };
}
