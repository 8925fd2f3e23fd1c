import { randomBytes } from 'node:crypto';
import { ProtocolError, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { taskHandleIn, type TaskEra, type WireTask } from './task-wire.js';

/**
 * SDK v2 refuses a task handle as the answer to tools/call in both eras (2025: "another result
 * family cannot default into an empty tools/call success"; 2026-07-28: "Unsupported result type
 * 'task'") and drops the body, so the task id would be lost. This tap sits in the transport
 * (transport-guard.ts) and turns such an answer, before the SDK sees it, into a JSON-RPC error
 * that carries the task: the call's promise rejects with it and taskHandleOf() reads it back.
 * An error rather than a made-up success, so a caller that does not know tasks fails loudly
 * instead of reading an empty result. The trace still records the answer as it arrived.
 */

/** The error code of a rewritten task handle (any code would do: the marker below decides). */
export const TASK_HANDLE_RPC_CODE = -32042;
/** Per process: a server cannot forge a task handle error by sending this code itself. */
const MARK = randomBytes(12).toString('hex');
/** Ids of tools/call requests in flight kept at most (the SDK settles each; this bounds a leak). */
const MAX_TRACKED = 4096;

/** Watches one transport's tools/call requests and rewrites their task-handle answers. */
export class TaskHandleTap {
  private readonly calls = new Set<string | number>();

  /** What we send: remember which request ids are tools/call. */
  outgoing(message: JSONRPCMessage): void {
    if (!('method' in message) || message.method !== 'tools/call' || !('id' in message)) return;
    if (this.calls.size >= MAX_TRACKED) this.calls.clear();
    this.calls.add(message.id);
  }

  /** What arrives: a task handle answering one of our tools/call requests becomes the marked error. */
  incoming(message: JSONRPCMessage): void {
    if ('method' in message || !('id' in message) || message.id === undefined) return;
    if (!this.calls.delete(message.id) || !('result' in message)) return;
    const handle = taskHandleIn(message.result);
    if (!handle) return;
    const m = message as unknown as Record<string, unknown>;
    delete m.result;
    m.error = {
      code: TASK_HANDLE_RPC_CODE,
      message: `the server runs this call as task ${handle.task.taskId}`,
      data: { mark: MARK, era: handle.era, task: handle.task },
    };
  }
}

/** The task a tools/call rejected with, when the tap put one there. */
export function taskHandleOf(error: unknown): { era: TaskEra; task: WireTask } | undefined {
  if (!(error instanceof ProtocolError) || error.code !== TASK_HANDLE_RPC_CODE) return undefined;
  const data = error.data as { mark?: unknown; era?: TaskEra; task?: WireTask } | undefined;
  if (!data || data.mark !== MARK || !data.task || !data.era) return undefined;
  return { era: data.era, task: data.task };
}
