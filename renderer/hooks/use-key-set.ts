import { useCallback, useState } from 'react';

/**
 * A set of keys switched on and off one at a time (the dry runs under way in an import view,
 * say): the set, and `toggle(key, on)`. The set keeps its identity when a toggle changes nothing.
 */
export function useKeySet(): [ReadonlySet<string>, (key: string, on: boolean) => void] {
  const [keys, setKeys] = useState<ReadonlySet<string>>(new Set());
  const toggle = useCallback(
    (key: string, on: boolean) =>
      setKeys((old) => {
        if (old.has(key) === on) return old;
        const next = new Set(old);
        if (on) next.add(key);
        else next.delete(key);
        return next;
      }),
    [],
  );
  return [keys, toggle];
}
