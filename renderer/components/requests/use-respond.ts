import { useState } from 'react';
import type { PendingResponse } from '../../../shared/domain/pending.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';

/** Where one answer is: not sent, on its way (which button), or refused. */
export type RespondState =
  { kind: 'idle' } | { kind: 'sending'; label: string } | { kind: 'failed'; error: HostError };

/**
 * Sends a person's answer to one pending request. The card itself disappears through
 * `pending.changed`; this only tracks the button that was pressed and any refusal.
 */
export function useRespond(id: string): {
  state: RespondState;
  respond: (response: PendingResponse, label: string) => void;
} {
  const host = useHost();
  const [state, setState] = useState<RespondState>({ kind: 'idle' });
  const respond = (response: PendingResponse, label: string) => {
    setState({ kind: 'sending', label });
    host.invoke('pending.respond', { id, response }).then(
      (r) => {
        // Settled first by something else (timeout, a stopped server): say so rather than hang.
        if (!r.settled)
          setState({
            kind: 'failed',
            error: {
              code: 'not_pending',
              message: 'This request was already settled (it timed out or its server stopped).',
            },
          });
      },
      (e: unknown) => setState({ kind: 'failed', error: asHostError(e) }),
    );
  };
  return { state, respond };
}

/** The label of a button, or "Sending…" while its answer is on its way. */
export function buttonLabel(state: RespondState, label: string): string {
  return state.kind === 'sending' && state.label === label ? 'Sending…' : label;
}
