import type { HostError } from '../../shared/domain/server-state.js';
import { HostCallError } from '../../shared/ipc/host-error.js';

/** Anything a HostApi call rejected with, as a HostError the UI can show. */
export function asHostError(error: unknown): HostError {
  if (error instanceof HostCallError) {
    return { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) };
  }
  if (error instanceof Error) return { code: 'error', message: error.message };
  return { code: 'error', message: String(error) };
}
