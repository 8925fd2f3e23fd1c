import { ProtocolError, SdkError } from '@modelcontextprotocol/client';
import type { HostError } from '../../../shared/domain/server-state.js';
import type { Redactor } from './redact.js';

/** An error the host raises on purpose, with a code the UI and CLI can act on. */
export class HostFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: HostError['details'],
  ) {
    super(message);
    this.name = 'HostFailure';
  }
}

const NODE_HINTS: Record<string, string> = {
  ENOENT: 'command not found: check the command and PATH',
  EACCES: 'permission denied: the command is not executable',
  ECONNREFUSED: 'connection refused: is the server running at that address?',
  ENOTFOUND: 'host not found: check the URL',
  ECONNRESET: 'the connection was reset by the server',
};

/**
 * Turn anything thrown into the serialisable HostError that crosses to the renderer,
 * with secrets scrubbed from the message and a hint a person can act on.
 */
export function toHostError(error: unknown, redactor?: Redactor): HostError {
  const scrub = (text: string): string => (redactor ? redactor.redactText(text) : text);
  if (error instanceof HostFailure) {
    return { code: error.code, message: scrub(error.message), ...(error.details ? { details: error.details } : {}) };
  }
  if (error instanceof SdkError) {
    const code = error.code === 'REQUEST_TIMEOUT' ? 'timeout' : error.code.toLowerCase();
    return { code, message: scrub(error.message) };
  }
  if (error instanceof ProtocolError) {
    return { code: 'protocol_error', message: scrub(error.message), details: { rpcCode: error.code } };
  }
  if (error instanceof Error) {
    const sysCode = (error as NodeJS.ErrnoException).code;
    const cause = (error as Error & { cause?: unknown }).cause;
    const causeCode = typeof cause === 'object' && cause !== null ? (cause as NodeJS.ErrnoException).code : undefined;
    const known = (sysCode && NODE_HINTS[sysCode]) || (causeCode && NODE_HINTS[causeCode]);
    if (error.name === 'AbortError') return { code: 'cancelled', message: 'cancelled' };
    if (known) return { code: (sysCode ?? causeCode ?? 'error').toLowerCase(), message: scrub(`${known} (${error.message})`) };
    return { code: 'error', message: scrub(error.message) };
  }
  return { code: 'error', message: scrub(String(error)) };
}

/** Collapse a zod-style issue list into one line naming the field. */
export function describeIssues(issues: { path: PropertyKey[]; message: string }[]): string {
  return issues
    .map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message))
    .join('; ');
}
