import { useEffect, useState } from 'react';
import type { LogLine, TraceEntry } from '../../shared/domain/server-state.js';
import { useHost, useHostEpoch, useHostStore } from '../host/host-context.js';

/** The UI keeps at most this many of each; the host keeps its own bounded buffer. */
const MAX_KEPT = 2000;

/** One server's log and trace, live. */
export interface ServerOutput {
  log: LogLine[];
  trace: TraceEntry[];
  error: string | null;
}

/** Append entries newer than what we hold (seq is monotonic per server and stream). */
function mergeBySeq<T extends { seq: number }>(held: T[], incoming: T[]): T[] {
  const last = held.length ? held[held.length - 1].seq : -Infinity;
  const fresh = incoming.filter((e) => e.seq > last);
  if (!fresh.length) return held;
  const merged = held.concat(fresh);
  return merged.length > MAX_KEPT ? merged.slice(merged.length - MAX_KEPT) : merged;
}

const EMPTY: ServerOutput = { log: [], trace: [], error: null };

/**
 * Log and trace of one server: live `server.output` events merged with the initial
 * snapshots by sequence number, so lines that raced the snapshot appear once. What is
 * held is tagged with the server and link epoch it was read for, so a switch or a
 * reconnect starts from empty instead of mixing two servers' lines.
 */
export function useServerOutput(serverId: string): ServerOutput {
  const host = useHost();
  const store = useHostStore();
  const epoch = useHostEpoch();
  const key = `${serverId}#${epoch}`;
  const [held, setHeld] = useState<{ key: string; output: ServerOutput }>({ key: '', output: EMPTY });

  useEffect(() => {
    if (epoch === null) return undefined;
    let live = true;
    const update = (f: (o: ServerOutput) => ServerOutput) =>
      setHeld((h) => ({ key, output: f(h.key === key ? h.output : EMPTY) }));
    const off = store.on('server.output', (batch) => {
      if (!live || batch.id !== serverId) return;
      update((o) => ({
        ...o,
        log: mergeBySeq(o.log, batch.log),
        trace: mergeBySeq(o.trace, batch.trace),
      }));
    });
    Promise.all([
      host.invoke('servers.log', { id: serverId }),
      host.invoke('servers.trace', { id: serverId }),
    ]).then(
      ([log, trace]) => {
        if (!live) return;
        // The snapshot is older than any event already merged: put it in front.
        update((o) => ({
          error: null,
          log: mergeBySeq(
            log.filter((l) => !o.log.length || l.seq < o.log[0].seq),
            o.log,
          ),
          trace: mergeBySeq(
            trace.filter((t) => !o.trace.length || t.seq < o.trace[0].seq),
            o.trace,
          ),
        }));
      },
      (error: unknown) => {
        if (live) update((o) => ({ ...o, error: error instanceof Error ? error.message : String(error) }));
      },
    );
    return () => {
      live = false;
      off();
    };
  }, [host, store, epoch, serverId, key]);

  return held.key === key ? held.output : EMPTY;
}
