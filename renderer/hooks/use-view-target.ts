import { useEffect, useRef } from 'react';

/** Something to show inside a view, asked for from outside it (the command palette). */
export type ViewTarget =
  | { view: 'servers'; serverId: string }
  | { view: 'tools'; serverId: string; name: string }
  | { view: 'prompts'; serverId: string; name: string }
  | { view: 'chat'; conversationId: string }
  /** Start a new conversation (the new-chat shortcut). */
  | { view: 'chat'; newChat: true };

type TargetView = ViewTarget['view'];
type Listener = (target: ViewTarget) => void;

const listeners = new Map<TargetView, Set<Listener>>();
// A target for a view not mounted yet (its chunk still loading) waits here for its first mount.
const waiting = new Map<TargetView, ViewTarget>();

/** Ask `target.view` to select `target`; the app shows the view itself. */
export function showTarget(target: ViewTarget): void {
  const set = listeners.get(target.view);
  if (set && set.size > 0) for (const l of [...set]) l(target);
  else waiting.set(target.view, target);
}

/**
 * Called by a view with what to do when someone outside asks it to show something; a request
 * made before the view mounted is delivered on mount. Views are otherwise independent.
 */
export function useViewTarget<V extends TargetView>(
  view: V,
  onTarget: (target: Extract<ViewTarget, { view: V }>) => void,
): void {
  const latest = useRef(onTarget);
  useEffect(() => {
    latest.current = onTarget;
  });
  useEffect(() => {
    // Every target in `view`'s slot has view === V (showTarget routes by it).
    const listener: Listener = (t) => latest.current(t as Extract<ViewTarget, { view: V }>);
    let set = listeners.get(view);
    if (!set) listeners.set(view, (set = new Set()));
    set.add(listener);
    const early = waiting.get(view);
    if (early) {
      waiting.delete(view);
      listener(early);
    }
    return () => {
      set.delete(listener);
    };
  }, [view]);
}
