import { useCallback, useRef, useState } from 'react';
import type { ReadResourceResult } from '../../../shared/domain/mcp-types.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';

/** A resources/read in progress or done. */
export type ReadState =
  | { kind: 'idle' }
  | { kind: 'reading'; uri: string }
  | { kind: 'read'; uri: string; result: ReadResourceResult }
  | { kind: 'failed'; uri: string; error: HostError };

/**
 * Read resources from one server; the latest read wins if several overlap. `refresh` reads again
 * while the last contents stay on screen (a live resource that changed must not blank out).
 */
export function useResourceRead(serverId: string) {
  const host = useHost();
  const [state, setState] = useState<ReadState>({ kind: 'idle' });
  const latest = useRef(0);
  const fetch = useCallback(
    (uri: string, quiet: boolean) => {
      const mine = ++latest.current;
      setState((s) => (quiet && s.kind === 'read' && s.uri === uri ? s : { kind: 'reading', uri }));
      host.invoke('resources.read', { serverId, uri }).then(
        (result) => {
          if (latest.current === mine) setState({ kind: 'read', uri, result });
        },
        (error: unknown) => {
          if (latest.current === mine) setState({ kind: 'failed', uri, error: asHostError(error) });
        },
      );
    },
    [host, serverId],
  );
  const read = useCallback((uri: string) => fetch(uri, false), [fetch]);
  const refresh = useCallback((uri: string) => fetch(uri, true), [fetch]);
  return { state, read, refresh };
}
