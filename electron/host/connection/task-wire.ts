import { z } from 'zod';

/**
 * The task wire of both eras, read into one shape. SDK v2 keeps the 2025-11-25 task types only
 * as deprecated vocabulary (no runtime, and its client does not export the schemas) and knows
 * nothing of the 2026-07-28 extension's shapes, so these few schemas are ours.
 */

const status = z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']);
const ms = z.number().finite().nonnegative();

/** The fields both eras name alike. */
const taskCore = {
  taskId: z.string().min(1),
  status,
  statusMessage: z.string().optional(),
  createdAt: z.string().optional(),
};

/** 2025-11-25 `Task` (CreateTaskResult.task, tasks/get, tasks/cancel, notifications/tasks/status). */
const LegacyTask = z.looseObject({
  ...taskCore,
  ttl: ms.nullable().optional(),
  pollInterval: ms.optional(),
});

/** 2026-07-28 extension `DetailedTask` (the CreateTaskResult itself, tasks/get, notifications/tasks). */
const ModernTask = z.looseObject({
  ...taskCore,
  ttlMs: ms.nullable().optional(),
  pollIntervalMs: ms.optional(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.looseObject({ code: z.number(), message: z.string() }).optional(),
  inputRequests: z.record(z.string(), z.looseObject({ method: z.string(), params: z.unknown() })).optional(),
});

/** Either era's task, in one shape. */
export interface WireTask {
  taskId: string;
  status: z.infer<typeof status>;
  statusMessage?: string;
  /** Epoch ms the server created it (absent when the server's timestamp does not parse). */
  createdAt?: number;
  ttlMs?: number | null;
  pollIntervalMs?: number;
  /** 2026-07-28 only: the final result, the JSON-RPC error, or the requests waiting on us. */
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
  inputRequests?: Record<string, { method: string; params?: unknown }>;
}

/** The era of a task's wire. */
export type TaskEra = 'legacy' | 'modern';

/** Read a task of `era` out of a result body; undefined when it is not one. */
export function readTask(era: TaskEra, body: unknown): WireTask | undefined {
  if (era === 'legacy') {
    const p = LegacyTask.safeParse(body);
    if (!p.success) return undefined;
    const t = p.data;
    return compact({ ...readCore(t), ttlMs: t.ttl, pollIntervalMs: t.pollInterval });
  }
  const p = ModernTask.safeParse(body);
  if (!p.success) return undefined;
  const t = p.data;
  return compact({
    ...readCore(t),
    ttlMs: t.ttlMs,
    pollIntervalMs: t.pollIntervalMs,
    result: t.result,
    error: t.error,
    inputRequests: t.inputRequests,
  });
}

/** The fields both eras name alike, read alike. */
function readCore(t: z.infer<z.ZodObject<typeof taskCore>>): Pick<WireTask, keyof typeof taskCore> {
  return {
    taskId: t.taskId,
    status: t.status,
    statusMessage: t.statusMessage,
    createdAt: epoch(t.createdAt),
  };
}

/**
 * The task handle a tools/call answer carries, if it is one: 2025 `{ task }` (a CreateTaskResult,
 * with no `content`), 2026-07-28 `{ resultType: "task", ...task }`.
 */
export function taskHandleIn(body: unknown): { era: TaskEra; task: WireTask } | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const b = body as Record<string, unknown>;
  if (b.resultType === 'task') {
    const task = readTask('modern', b);
    return task ? { era: 'modern', task } : undefined;
  }
  if (!('content' in b) && 'task' in b) {
    const task = readTask('legacy', b.task);
    return task ? { era: 'legacy', task } : undefined;
  }
  return undefined;
}

/** Any result: the explicit-schema requests (tasks/*) validate their bodies themselves. */
export const AnyResult = z.looseObject({});

function epoch(iso: string | undefined): number | undefined {
  if (!iso) return undefined;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : undefined;
}

/** Drop keys whose value is undefined (exactOptionalPropertyTypes). */
function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
