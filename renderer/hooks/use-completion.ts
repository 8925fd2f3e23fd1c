import { useEffect, useState } from 'react';
import { useHost } from '../host/host-context.js';
import { useDebounced } from './use-debounced.js';

/** What completion/complete is asked about: a prompt or a resource template. */
export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

const DEBOUNCE_MS = 250;
const NONE: string[] = [];

/**
 * Suggestions for the argument being edited, asked for after typing pauses. Failures
 * are silent: completion is a convenience, and the field works without it.
 */
export function useCompletion(
  serverId: string,
  ref: CompletionRef,
  active: { name: string; value: string } | null,
  context: Record<string, string>,
  enabled: boolean,
): string[] {
  const host = useHost();
  // Debounce a string, not the object: a fresh object each render would never settle.
  const settledKey = useDebounced(active ? JSON.stringify([active.name, active.value]) : null, DEBOUNCE_MS);
  // Suggestions are tagged with the question they answer: a stale answer is never shown.
  const [answer, setAnswer] = useState<{ key: string; values: string[] }>({ key: '', values: [] });
  const refKey = JSON.stringify(ref);
  // The other arguments narrow the suggestions; the one being typed is not context.
  const contextKey = JSON.stringify(
    Object.entries(context).filter(([k, v]) => k !== active?.name && v !== ''),
  );

  const key = JSON.stringify([serverId, refKey, contextKey, settledKey, enabled]);

  useEffect(() => {
    if (!enabled || settledKey === null) return undefined;
    const [name, value] = JSON.parse(settledKey) as [string, string];
    let live = true;
    const parsedRef = JSON.parse(refKey) as CompletionRef;
    const others = Object.fromEntries(
      (JSON.parse(contextKey) as [string, string][]).filter(([k]) => k !== name),
    );
    host
      .invoke('completion.complete', {
        serverId,
        ref: parsedRef,
        argument: { name, value },
        ...(Object.keys(others).length ? { context: { arguments: others } } : {}),
      })
      .then(
        (r) => {
          if (live) setAnswer({ key, values: r.values.slice(0, 20) });
        },
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [host, serverId, refKey, contextKey, settledKey, enabled, key]);

  return answer.key === key ? answer.values : NONE;
}
