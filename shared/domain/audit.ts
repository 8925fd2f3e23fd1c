/**
 * The append-only audit log: what happened between the host, its servers and the person,
 * one record per event. Records are redacted before they are written, so nothing here
 * ever holds a secret value.
 */

/** What area of the host an audit record is about. */
export type AuditKind =
  | 'connection'
  | 'tool-call'
  | 'approval'
  | 'sampling'
  | 'elicitation'
  | 'auth'
  | 'roots'
  | 'app'
  | 'bundle'
  | 'import'
  /** A tool's definition changed since it was pinned, or a person accepted a change. */
  | 'tool-change'
  /** A server arriving from outside ran once in the dry-run sandbox; what it tried. */
  | 'dry-run';

/** Every audit kind, in display order (selects, validation). */
export const AUDIT_KINDS: readonly AuditKind[] = [
  'connection',
  'tool-call',
  'approval',
  'sampling',
  'elicitation',
  'auth',
  'roots',
  'app',
  'bundle',
  'import',
  'tool-change',
  'dry-run',
];

/** One audit event. */
export interface AuditRecord {
  /** Order of writing within one host process (ties on `at` keep their order). */
  seq?: number;
  /** When it happened, ms since the epoch. */
  at: number;
  kind: AuditKind;
  serverId?: string;
  /** What happened, e.g. `connected`, `call-start`, `requested`, `answered`. */
  action: string;
  details?: Record<string, unknown>;
}

/** Which audit records to read: every field narrows; newest first, at most `limit`. */
export interface AuditQuery {
  serverId?: string;
  kind?: AuditKind;
  /** Inclusive lower bound on `at` (ms). */
  from?: number;
  /** Inclusive upper bound on `at` (ms). */
  to?: number;
  limit?: number;
}
