import { useEffect, useRef, useState } from 'react';
import type { CallToolResult } from '../../../shared/domain/mcp-types.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import type { ToolProgress } from '../../../shared/ipc/contract.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';
import { newCallId } from '../../lib/ids.js';

/** One tool call's life, from the click to its result. */
export type CallState =
  | { kind: 'idle' }
  | { kind: 'running'; callId: string; startedAt: number; progress: ToolProgress | null; cancelling: boolean }
  | { kind: 'done'; result: CallToolResult; elapsedMs: number }
  | { kind: 'failed'; error: HostError; elapsedMs: number; cancelled: boolean };

/** Calls a tool with a fresh callId, follows its progress events, and can cancel it. */
export function useToolCall(serverId: string, tool: string) {
  const host = useHost();
  const [state, setState] = useState<CallState>({ kind: 'idle' });
  const runningId = state.kind === 'running' ? state.callId : null;
  // A result arriving after the person moved on to another tool must not land here.
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  useEffect(() => {
    if (!runningId) return undefined;
    return host.on('tool.progress', (p) => {
      if (p.callId !== runningId) return;
      setState((s) => (s.kind === 'running' && s.callId === p.callId ? { ...s, progress: p } : s));
    });
  }, [host, runningId]);

  const call = (args: Record<string, unknown>) => {
    const callId = newCallId();
    const startedAt = performance.now();
    setState({ kind: 'running', callId, startedAt, progress: null, cancelling: false });
    host.invoke('tools.call', { serverId, tool, args, callId }).then(
      (result) => {
        if (mounted.current) setState({ kind: 'done', result, elapsedMs: performance.now() - startedAt });
      },
      (error: unknown) => {
        if (!mounted.current) return;
        const he = asHostError(error);
        setState((s) => ({
          kind: 'failed',
          error: he,
          elapsedMs: performance.now() - startedAt,
          // Whatever code the abort surfaces as, a call the person cancelled was cancelled.
          cancelled: he.code === 'cancelled' || (s.kind === 'running' && s.callId === callId && s.cancelling),
        }));
      },
    );
  };

  const cancel = () => {
    if (state.kind !== 'running') return;
    setState({ ...state, cancelling: true });
    // The call's own promise settles (as cancelled) once the server stops; nothing to do here.
    host.invoke('tools.cancel', { callId: state.callId }).catch(() => undefined);
  };

  return { state, call, cancel };
}
