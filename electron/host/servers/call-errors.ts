import { SdkError } from '@modelcontextprotocol/client';
import { HostFailure, toHostError } from '../util/errors.js';

/**
 * A tool call that failed below the host (the SDK's "Connection closed", "Request timed out",
 * a failed write) says nothing of where: with many servers and calls in flight, a person (or
 * the model) cannot tell which one died. Say which server and tool; an error that already
 * names the server (the host's own, or one explained further down) is passed on untouched.
 */
export function namedCallError(serverId: string, tool: string, error: unknown): unknown {
  if (!(error instanceof SdkError)) return error;
  if (error.message.includes(`"${serverId}"`)) return error;
  const { code, message } = toHostError(error);
  return new HostFailure(code, `server "${serverId}", tool "${tool}": ${message}`);
}
