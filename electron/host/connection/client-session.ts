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
import { killSnapshot, snapshotTree, type ProcessSnapshot } from './process-tree.js';
import type { ServerOutput } from './server-output.js';

/**
 * The client side of one MCP session, apart from the connection's state machine: what we
 * declare, how server-to-client requests are answered, how a server is described, and how a
 * session is closed without leaving processes behind.
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

/** How long a stdio server gets to exit on its own once its stdin is closed, before its tree is killed. */
const STDIN_GRACE_MS = 100;
/** How long the SDK's own close may take when we have no process tree to kill (a remote session's DELETE). */
const SDK_CLOSE_MS = 4000;
/** After the tree kill the SDK's close settles as soon as the dead process's pipes close. */
const AFTER_KILL_MS = 500;

/**
 * Close a client and make sure its whole process tree is gone, the way the spec and the SDK
 * stop a stdio server: close its stdin, give it a moment to exit on its own, then kill. The
 * SDK's own close would wait 2 s before its SIGTERM and signal only the direct child, so
 * grandchildren (npx -> node, uvx -> python) would be orphaned: snapshot the descendants
 * first, because once the parent dies they are re-parented out of reach, and kill the tree.
 */
export async function closeOpened(opened: OpenedClient, earlier?: ProcessSnapshot): Promise<void> {
  const pid = opened.pid;
  const now = pid ? await snapshotTree(pid).catch(() => undefined) : undefined;
  opened.client.onclose = undefined;
  // The SDK's close ends the server's stdin before its first await: the grace starts now.
  const closing = opened.client.close().catch(() => undefined);
  const rows = [...(now?.rows ?? []), ...(earlier?.rows ?? [])];
  // Nothing of ours to kill (remote, or a tree we could not list): the SDK's close escalates itself.
  if (rows.length === 0) return settleWithin(closing, SDK_CLOSE_MS);
  await settleWithin(closing, STDIN_GRACE_MS);
  await killSnapshot({ rows });
  await settleWithin(closing, AFTER_KILL_MS);
}

/** Waits for `promise`, or `ms` at most. */
async function settleWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise,
    new Promise((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}
