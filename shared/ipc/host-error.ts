import type { HostError } from '../domain/server-state.js';

/** The Error a HostApi call rejects with: carries the serialisable HostError. */
export class HostCallError extends Error {
  readonly code: string;
  readonly details?: HostError['details'];

  constructor(error: HostError) {
    super(error.message);
    this.name = 'HostCallError';
    this.code = error.code;
    this.details = error.details;
  }
}

/** Narrow anything that crossed a boundary to a HostError, without trusting it. */
export function toHostError(value: unknown): HostError {
  if (typeof value === 'object' && value !== null) {
    const v = value as Record<string, unknown>;
    if (typeof v.code === 'string' && typeof v.message === 'string') {
      return { code: v.code, message: v.message };
    }
  }
  return { code: 'unknown', message: String(value) };
}
