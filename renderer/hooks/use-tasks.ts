import { useCallback } from 'react';
import type { ToolTask } from '../../shared/domain/tasks.js';
import { useHost } from '../host/host-context.js';
import { useSnapshot } from './use-host-state.js';

/** The server task a tool call runs as (live from the store; survives a window reload). */
export function useTaskOfCall(callId: string | null): ToolTask | undefined {
  const tasks = useSnapshot('tasks');
  if (!callId || tasks.kind !== 'ready') return undefined;
  return tasks.value.find((t) => t.callId === callId);
}

/** Cancel a task by the call it belongs to (the host sends tasks/cancel); resolves to whether one was running. */
export function useCancelTask(): (callId: string) => Promise<boolean> {
  const host = useHost();
  return useCallback(
    (callId: string) =>
      host.invoke('tasks.cancel', { callId }).then(
        (r) => r.cancelled,
        () => false,
      ),
    [host],
  );
}
