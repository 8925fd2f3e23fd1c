import { useState } from 'react';

/**
 * `value`, or the last value seen for the same `key` while `value` is missing. A server
 * that reconnects briefly drops out of the catalog; the selected tool's panel (its typed
 * arguments, a result that just arrived) must survive that instead of vanishing.
 * `value` must be a stable reference (e.g. an entry of the store's catalog).
 */
export function useLastSeen<T>(key: string | null, value: T | undefined): T | undefined {
  const [held, setHeld] = useState<{ key: string; value: T } | null>(null);
  // Remembered during render (React's pattern for state that follows a changing value).
  if (key !== null && value !== undefined && (held?.key !== key || held.value !== value)) {
    setHeld({ key, value });
  }
  if (key === null) return undefined;
  if (value !== undefined) return value;
  return held?.key === key ? held.value : undefined;
}
