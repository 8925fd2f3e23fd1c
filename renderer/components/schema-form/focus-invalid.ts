import { useEffect, type RefObject } from 'react';

/**
 * After each submit attempt (`attempt` counts them; 0: none yet), scrolls to and focuses the
 * first field marked invalid inside `form`, so a keyboard or screen-reader user lands on what
 * to fix instead of an error line somewhere above. Runs after the render that drew the errors.
 */
export function useFocusFirstInvalid(form: RefObject<HTMLElement | null>, attempt: number): void {
  useEffect(() => {
    if (attempt === 0) return;
    const first = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!first) return;
    first.scrollIntoView({ block: 'center' });
    first.focus({ preventScroll: true });
  }, [form, attempt]);
}
