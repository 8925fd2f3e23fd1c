import type { AuditKind, AuditQuery } from '../../../shared/domain/audit.js';

/** The filters as the form holds them: strings straight from the inputs. */
export interface AuditFilterForm {
  serverId: string;
  kind: AuditKind | '';
  /** `datetime-local` values (local time), empty for unbounded. */
  from: string;
  to: string;
}

/** No filter at all: the newest records of every server and kind. */
export const EMPTY_FILTERS: AuditFilterForm = { serverId: '', kind: '', from: '', to: '' };

/** A `datetime-local` value as ms, or undefined when empty or unreadable. */
export function localToMs(value: string): number | undefined {
  if (!value) return undefined;
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

/**
 * The query the host gets. A `to` minute is inclusive of its whole minute, since the input
 * has no seconds: "up to 10:05" should show what happened at 10:05:30.
 */
export function toQuery(f: AuditFilterForm, limit: number): AuditQuery {
  const q: AuditQuery = { limit };
  if (f.serverId) q.serverId = f.serverId;
  if (f.kind) q.kind = f.kind;
  const from = localToMs(f.from);
  const to = localToMs(f.to);
  if (from !== undefined) q.from = from;
  if (to !== undefined) q.to = to + 59_999;
  return q;
}
