import { z } from 'zod';
import type { ToolTask } from '../../domain/tasks.js';
import { empty, typed } from './channel-kit.js';

const id = z.string().min(1).max(256);

/** Tool calls that run as server-side tasks: the running and recent ones, and cancelling one. */
export const taskChannels = {
  /** Running and recent tasks, newest first (a reloaded window re-reads them). */
  'tasks.list': { request: empty, response: typed<ToolTask[]>() },
  /** Cancel a running task by its task id or by the tool call it belongs to (sends tasks/cancel). */
  'tasks.cancel': {
    request: z
      .object({ taskId: id.optional(), callId: id.optional() })
      .strict()
      .refine(
        (r) => (r.taskId === undefined) !== (r.callId === undefined),
        'name exactly one of taskId, callId',
      ),
    response: typed<{ cancelled: boolean }>(),
  },
} as const;
