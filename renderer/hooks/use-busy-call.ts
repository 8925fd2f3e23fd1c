import { useCallback, useState } from 'react';
import type { HostError } from '../../shared/domain/server-state.js';
import { asHostError } from '../host/errors.js';

/**
 * One host call at a time behind a button: `busy` while it runs, the refusal as `error` (the
 * previous one cleared when the next call starts), and `onDone` with the result on success.
 */
export function useBusyCall(): {
  busy: boolean;
  error: HostError | null;
  setError: (error: HostError | null) => void;
  run: <T>(call: Promise<T>, onDone?: (value: T) => void) => void;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<HostError | null>(null);
  const run = useCallback(<T>(call: Promise<T>, onDone?: (value: T) => void) => {
    setBusy(true);
    setError(null);
    call.then(
      (value) => {
        setBusy(false);
        onDone?.(value);
      },
      (e: unknown) => {
        setBusy(false);
        setError(asHostError(e));
      },
    );
  }, []);
  return { busy, error, setError, run };
}
