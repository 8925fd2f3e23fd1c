import { useCallback, useEffect, useRef, useState } from 'react';
import { useHost } from '../../host/host-context.js';

/** The run id held for a run seen only from its middle. */
const UNKNOWN_RUN = '';

/** Runs in progress, by conversation id; and a way to record one that `chat.send` started. */
export interface ChatRuns {
  running: ReadonlyMap<string, string>;
  /** Record the runId `chat.send` answered with, unless its run-end already came by. */
  started: (conversationId: string, runId: string) => void;
  /** Drop a run the host says is not running (its run-end was missed while disconnected). */
  forget: (conversationId: string) => void;
}

/**
 * Which conversations have a run in progress, from every conversation's run-start and
 * run-end events, so Stop shows on the right conversation after switching back to it.
 */
export function useChatRuns(): ChatRuns {
  const host = useHost();
  const [running, setRunning] = useState<ReadonlyMap<string, string>>(new Map());
  // A fast failing run can end before chat.send's answer arrives; remember ended ids so
  // that late answer does not mark the conversation running forever.
  const ended = useRef(new Set<string>());

  useEffect(
    () =>
      host.on('chat.event', ({ conversationId, event }) => {
        if (event.type === 'run-start') {
          setRunning((m) => new Map(m).set(conversationId, event.runId));
        } else if (event.type === 'run-end') {
          ended.current.add(event.runId);
          setRunning((m) => {
            const held = m.get(conversationId);
            if (held !== event.runId && held !== UNKNOWN_RUN) return m;
            const next = new Map(m);
            next.delete(conversationId);
            return next;
          });
        } else {
          // A step of a run whose start we missed (the page was reloaded mid-run): it is running.
          setRunning((m) => (m.has(conversationId) ? m : new Map(m).set(conversationId, UNKNOWN_RUN)));
        }
      }),
    [host],
  );

  const started = useCallback((conversationId: string, runId: string) => {
    if (ended.current.has(runId)) return;
    setRunning((m) => (m.get(conversationId) === runId ? m : new Map(m).set(conversationId, runId)));
  }, []);

  const forget = useCallback((conversationId: string) => {
    setRunning((m) => {
      if (!m.has(conversationId)) return m;
      const next = new Map(m);
      next.delete(conversationId);
      return next;
    });
  }, []);

  return { running, started, forget };
}
