import { UnauthorizedError } from '@modelcontextprotocol/client';

/**
 * Whether a connect failed because the server wants a sign-in: the SDK's UnauthorizedError
 * (possibly wrapped by era negotiation) or a bare HTTP 401 when no auth provider was given.
 */
export function isAuthRequired(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; depth < 6 && typeof e === 'object' && e !== null; depth++) {
    if (UnauthorizedError.isInstance(e)) return true;
    const status = (e as { status?: unknown }).status ?? (e as { data?: { status?: unknown } }).data?.status;
    if (status === 401) return true;
    e = (e as { cause?: unknown }).cause ?? (e as { data?: { cause?: unknown } }).data?.cause;
  }
  return false;
}
