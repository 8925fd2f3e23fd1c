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
    return {
      code: error.code,
      message: scrub(error.message),
      ...(error.details ? { details: error.details } : {}),
    };
  }
  if (error instanceof SdkError) {
    const code = error.code === 'REQUEST_TIMEOUT' ? 'timeout' : error.code.toLowerCase();
    // "probe failed: fetch failed" hides the actionable part (ECONNREFUSED) in the cause chain.
    const root = rootErrno(error);
    return { code, message: scrub(root ? `${NODE_HINTS[root]} (${error.message})` : error.message) };
  }
  if (error instanceof ProtocolError) {
    return { code: 'protocol_error', message: scrub(error.message), details: { rpcCode: error.code } };
  }
  if (error instanceof Error) {
    const root = rootErrno(error);
    if (error.name === 'AbortError') return { code: 'cancelled', message: 'cancelled' };
    if (root) return { code: root.toLowerCase(), message: scrub(`${NODE_HINTS[root]} (${error.message})`) };
    return { code: 'error', message: scrub(error.message) };
  }
  return { code: 'error', message: scrub(String(error)) };
}

/** The first errno with a hint down an error's cause chain (fetch nests it two levels deep). */
function rootErrno(error: unknown): string | undefined {
  let e: unknown = error;
  for (let depth = 0; depth < 6 && typeof e === 'object' && e !== null; depth++) {
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && NODE_HINTS[code]) return code;
    e = (e as { cause?: unknown }).cause ?? (e as { data?: { cause?: unknown } }).data?.cause;
  }
  return undefined;
}

/** Collapse a zod-style issue list into one line naming the field. */
export function describeIssues(issues: { path: PropertyKey[]; message: string }[]): string {
  return issues
    .map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message))
    .join('; ');
}
