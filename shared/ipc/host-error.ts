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
      const details = readDetails(v.details);
      return details ? { code: v.code, message: v.message, details } : { code: v.code, message: v.message };
    }
  }
  return { code: 'unknown', message: String(value) };
}

/** Keep only flat, serialisable detail values. */
function readDetails(value: unknown): HostError['details'] | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const out: NonNullable<HostError['details']> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = v;
  }
  return out;
}
