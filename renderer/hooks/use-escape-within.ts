import { useEffect, type RefObject } from 'react';

/**
 * Call `onEscape` when Escape is pressed while focus is inside `ref` (a popover or a panel).
 * A document listener rather than onKeyDown on the container: the container is not itself
 * a control, so it should not carry keyboard handlers.
 */
export function useEscapeWithin(ref: RefObject<HTMLElement | null>, onEscape: () => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || !(e.target instanceof Node)) return;
      if (!ref.current?.contains(e.target)) return;
      // Handled: the app-wide Esc (use-app-shortcuts.ts) then closes nothing else.
      e.preventDefault();
      onEscape();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [ref, onEscape]);
}
