import type { AuditQuery, AuditRecord } from '../../../shared/domain/audit.js';
import { AUDIT_KINDS } from '../../../shared/domain/audit.js';

/** How many records a query returns when it names no limit. */
export const DEFAULT_AUDIT_LIMIT = 500;
/** The most any one query may return, whatever it asks for. */
export const MAX_AUDIT_LIMIT = 10_000;

/** The limit a query really gets. */
export function effectiveLimit(q: AuditQuery): number {
  const n = q.limit ?? DEFAULT_AUDIT_LIMIT;
  return Math.max(0, Math.min(MAX_AUDIT_LIMIT, Math.floor(n)));
}

/** True when a record passes every filter of a query (the limit aside). */
export function matchesQuery(r: AuditRecord, q: AuditQuery): boolean {
  if (q.serverId !== undefined && r.serverId !== q.serverId) return false;
  if (q.kind !== undefined && r.kind !== q.kind) return false;
  if (q.from !== undefined && r.at < q.from) return false;
  if (q.to !== undefined && r.at > q.to) return false;
  return true;
}

/**
 * A parsed line, or undefined when it is not a well-formed record (a line cut short by a
 * crash mid-write, or something a person edited by hand): readers skip it, never fail.
 */
export function parseAuditLine(line: string): AuditRecord | undefined {
  if (!line.trim()) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const r = value as Record<string, unknown>;
  if (
    typeof r.at !== 'number' ||
    typeof r.action !== 'string' ||
    !AUDIT_KINDS.includes(r.kind as AuditRecord['kind'])
  )
    return undefined;
  return value as AuditRecord;
}

/** Records as JSON lines, oldest first (how log tools expect to read them). */
export function toJsonl(newestFirst: AuditRecord[]): string {
  return [...newestFirst]
    .reverse()
    .map((r) => `${JSON.stringify(r)}\n`)
    .join('');
}
