import { useEffect, useState } from 'react';
import type { AuditRecord } from '../../../shared/domain/audit.js';
import type { PendingRequest } from '../../../shared/domain/pending.js';
import { conversationOf, OpenConversation } from '../../components/open-conversation.js';
import { useHost, useHostEpoch } from '../../host/host-context.js';

/** How far back "recently" reaches, and how many rows it shows. */
const WINDOW_MS = 30 * 60_000;
const SHOWN = 10;
const OUTCOMES = new Set(['cancelled', 'timeout']);
const KINDS = new Set(['sampling', 'elicitation', 'approval']);

/**
 * Requests that ended without an answer in the last half hour: cancelled (a stopped run or
 * tool call, a server that went away) or timed out. Read from the audit log, the one record
 * of how every request ended, and re-read whenever the queue changes.
 */
export function RecentlySettled({ pending, active }: { pending: PendingRequest[]; active: boolean }) {
  const host = useHost();
  const epoch = useHostEpoch();
  const [records, setRecords] = useState<AuditRecord[]>([]);
  const queueKey = pending.map((p) => p.id).join(',');

  useEffect(() => {
    if (epoch === null || !active) return undefined;
    let current = true;
    host
      .invoke('audit.query', { from: Date.now() - WINDOW_MS, limit: 500 })
      .then((all) => {
        if (current)
          setRecords(all.filter((r) => KINDS.has(r.kind) && OUTCOMES.has(r.action)).slice(0, SHOWN));
      })
      // The queue above is what matters; an unreadable log leaves this section empty.
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [host, epoch, active, queueKey]);

  if (records.length === 0) return null;
  return (
    <section
      className="recently-settled"
      aria-labelledby="recently-settled-title"
      data-testid="recently-settled"
    >
      <h2 id="recently-settled-title" className="section-title">
        Recently ended without an answer
      </h2>
      <ul>
        {records.map((r) => (
          <SettledRow key={`${r.seq ?? ''}-${r.at}-${String(r.details?.id)}`} record={r} />
        ))}
      </ul>
    </section>
  );
}

function SettledRow({ record }: { record: AuditRecord }) {
  const d = record.details ?? {};
  const conversationId = conversationOf(d);
  const tool = typeof d.tool === 'string' ? d.tool : undefined;
  const reason = typeof d.reason === 'string' ? d.reason : undefined;
  const outcome = record.action === 'timeout' ? 'timed out' : 'cancelled';
  return (
    <li
      className="settled-item"
      data-testid="settled-item"
      data-kind={record.kind}
      data-outcome={record.action}
      data-request-id={typeof d.id === 'string' ? d.id : undefined}
    >
      <span className={`badge ${record.action === 'timeout' ? 'status-waiting' : 'subtle'}`}>{outcome}</span>
      <span>
        {what(record.kind, d)} from <span className="badge subtle">{record.serverId ?? '?'}</span>
        {tool && record.kind !== 'approval' ? (
          <>
            {' '}
            while <code>{tool}</code> ran
          </>
        ) : null}
        {' · '}
        <time dateTime={new Date(record.at).toISOString()}>{new Date(record.at).toLocaleTimeString()}</time>
      </span>
      {reason && <span className="muted small-print settled-reason">{sentence(reason)}</span>}
      {conversationId && <OpenConversation conversationId={conversationId} />}
    </li>
  );
}

/** The request's kind in words, as the queue above names it. */
function what(kind: AuditRecord['kind'], d: Record<string, unknown>): string {
  if (kind === 'approval') return 'Tool call approval';
  if (kind === 'elicitation') return d.mode === 'url' ? 'Link' : 'Form';
  return d.stage === 'reply' ? 'Sampling reply' : 'Sampling request';
}

function sentence(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}
