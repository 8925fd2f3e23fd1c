import type { AuditRecord } from '../../../shared/domain/audit.js';
import { JsonView } from '../../components/content/json-view.js';
import { conversationOf, OpenConversation } from '../../components/open-conversation.js';

/** A record's time as the person's local date and time, to the millisecond. */
function formatWhen(at: number): string {
  const d = new Date(at);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** A one-line hint of what the details hold, so most rows need no expanding. */
function detailsHint(d: Record<string, unknown> | undefined): string {
  if (!d) return '';
  const pick = ['tool', 'choice', 'action', 'error', 'mode', 'domain', 'transport', 'protocolVersion'];
  const parts: string[] = [];
  for (const k of pick) {
    const v = d[k];
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
      parts.push(`${k}: ${String(v)}`);
  }
  if (typeof d.durationMs === 'number') parts.push(`${d.durationMs} ms`);
  if (d.isError === true) parts.push('isError');
  return parts.join(' · ').slice(0, 160);
}

/** One audit record as a table row; its details expand as JSON; one from a chat links to it. */
export function AuditRow({ record }: { record: AuditRecord }) {
  const conversationId = conversationOf(record.details);
  return (
    <tr className={`audit-row audit-${record.kind}`} data-testid="audit-row">
      <td className="audit-time">{formatWhen(record.at)}</td>
      <td>
        <span className="badge subtle">{record.kind}</span>
      </td>
      <td className="audit-server">{record.serverId ?? '—'}</td>
      <td className="audit-action">{record.action}</td>
      <td className="audit-details">
        {record.details && Object.keys(record.details).length > 0 ? (
          <details>
            <summary>{detailsHint(record.details) || 'details'}</summary>
            <JsonView value={record.details} />
          </details>
        ) : (
          <span className="muted">—</span>
        )}
        {conversationId && <OpenConversation conversationId={conversationId} />}
      </td>
    </tr>
  );
}
