import { useCallback, useEffect, useRef, useState } from 'react';
import type { AuditQuery, AuditRecord } from '../../../shared/domain/audit.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { asHostError } from '../../host/errors.js';
import { useHost, useHostEpoch } from '../../host/host-context.js';

/** The audit records of one query. */
export type AuditState =
  { kind: 'loading' } | { kind: 'ready'; records: AuditRecord[] } | { kind: 'error'; error: HostError };

/**
 * Audit records for a query: fetched on (re)connect, whenever the query changes, when the
 * view becomes active, and on `refresh()`. A slow answer to an older query never
 * overwrites a newer one.
 */
export function useAudit(query: AuditQuery, active: boolean): { state: AuditState; refresh: () => void } {
  const host = useHost();
  const epoch = useHostEpoch();
  const [state, setState] = useState<AuditState>({ kind: 'loading' });
  const [tick, setTick] = useState(0);
  const latest = useRef(0);
  const key = JSON.stringify(query);

  useEffect(() => {
    if (epoch === null || !active) return;
    const mine = ++latest.current;
    host.invoke('audit.query', JSON.parse(key) as AuditQuery).then(
      (records) => {
        if (latest.current === mine) setState({ kind: 'ready', records });
      },
      (error: unknown) => {
        if (latest.current === mine) setState({ kind: 'error', error: asHostError(error) });
      },
    );
  }, [host, epoch, key, tick, active]);

  const refresh = useCallback(() => setTick((t) => t + 1), []);
  return { state, refresh };
}
