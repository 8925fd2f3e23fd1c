import { useRef } from 'react';

/**
 * `value`, or the last value seen for the same `key` while `value` is missing. A server
 * that reconnects briefly drops out of the catalog; the selected tool's panel (its typed
 * arguments, a result that just arrived) must survive that instead of vanishing.
 */
export function useLastSeen<T>(key: string | null, value: T | undefined): T | undefined {
  const held = useRef<{ key: string; value: T } | null>(null);
  if (key === null) {
    held.current = null;
    return undefined;
  }
  if (value !== undefined) {
    held.current = { key, value };
    return value;
  }
  return held.current?.key === key ? held.current.value : undefined;
}
