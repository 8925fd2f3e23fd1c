import { HostCallError, parseHostError, type HostError } from '../../shared/ipc/host-error.js';

/**
 * The renderer's one converter: a HostApi rejection (a HostCallError from the bridge client or
 * the preload link), a wire error object, or a JavaScript Error, as a HostError the UI can show.
 * What is neither a HostCallError nor an Error is read with `parseHostError`, so a code this
 * build does not know becomes 'unknown' and only known details survive.
 */
export function asHostError(error: unknown): HostError {
  if (error instanceof HostCallError) return error.toHostError();
  if (error instanceof Error) return { code: 'error', message: error.message };
  return parseHostError(error);
}

/** The Error a HostApi call rejects with, for an error that crossed the preload or the bridge. */
export function hostCallError(wire: unknown): HostCallError {
  return new HostCallError(asHostError(wire));
}

/** One field error of a failed request, as a person reads it. */
export interface FieldErrorLine {
  /** The field's path in the request ("config.command"), or undefined for the request as a whole. */
  field: string | undefined;
  message: string;
}

/**
 * A failed request's field errors (`details.fields`, sent as data by the host's router), one
 * line per field in the host's order; empty when the error names no field.
 */
export function fieldErrorLines(error: HostError): FieldErrorLine[] {
  return Object.entries(error.details?.fields ?? {}).map(([path, message]) => ({
    field: path === '(root)' ? undefined : path,
    message,
  }));
}
