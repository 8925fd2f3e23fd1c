import type { CreateMessageRequest, ElicitRequest } from '@modelcontextprotocol/client';
import type { ServerRequestHandlers } from '../connection/client-session.js';
import { HostFailure } from '../util/errors.js';

/**
 * Answer one of a 2026-07-28 task's inputRequests through the same handlers as a request the
 * server pushed or sent in an input_required round: the spec asks clients to treat each exactly
 * like the equivalent standalone request (same consent, same queue, same audit).
 */
export async function answerTaskInput(
  handlers: ServerRequestHandlers,
  serverId: string,
  method: string,
  params: unknown,
  signal: AbortSignal,
): Promise<unknown> {
  const p = typeof params === 'object' && params !== null && !Array.isArray(params) ? params : undefined;
  // The SDK validates pushed requests; these arrive as task data, so at least the shape is checked.
  if (
    method === 'elicitation/create' &&
    handlers.elicit &&
    p &&
    typeof (p as { message?: unknown }).message === 'string'
  )
    return handlers.elicit(serverId, p as ElicitRequest['params'], signal);
  if (
    method === 'sampling/createMessage' &&
    handlers.sample &&
    p &&
    Array.isArray((p as { messages?: unknown }).messages)
  )
    return handlers.sample(serverId, p as CreateMessageRequest['params'], signal);
  if (method === 'roots/list' && handlers.listRoots) return { roots: handlers.listRoots() };
  throw new HostFailure(
    'unavailable',
    `a task asked for "${method.slice(0, 80)}", which MCP Desk does not answer`,
  );
}
