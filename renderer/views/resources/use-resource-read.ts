import { useCallback, useState } from 'react';
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

/** Read resources from one server; the latest read wins if several overlap. */
export function useResourceRead(serverId: string) {
  const host = useHost();
  const [state, setState] = useState<ReadState>({ kind: 'idle' });
  const read = useCallback(
    (uri: string) => {
      setState({ kind: 'reading', uri });
      host.invoke('resources.read', { serverId, uri }).then(
        (result) =>
          setState((s) => (s.kind === 'reading' && s.uri === uri ? { kind: 'read', uri, result } : s)),
        (error: unknown) =>
          setState((s) =>
            s.kind === 'reading' && s.uri === uri ? { kind: 'failed', uri, error: asHostError(error) } : s,
          ),
      );
    },
    [host, serverId],
  );
  return { state, read };
}
