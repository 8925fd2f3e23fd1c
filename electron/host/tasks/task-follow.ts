import { isCallToolResult, ProtocolError, type Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '../../../shared/domain/mcp-types.js';
import { HostFailure } from '../util/errors.js';
import { AnyResult, readTask, type TaskEra, type WireTask } from '../connection/task-wire.js';

/** How often a task is polled: the server's pollInterval, clamped; `fallbackMs` when it names none. */
export interface PollBounds {
  minMs: number;
  maxMs: number;
  fallbackMs: number;
}

/** Bounds that keep a chatty server from being hammered and a sleepy one from stalling the card. */
export const DEFAULT_POLL_BOUNDS: PollBounds = { minMs: 100, maxMs: 5_000, fallbackMs: 1_000 };

/** Answers one of a 2026-07-28 task's inputRequests (elicitation, sampling, roots) like a pushed request. */
export type InputAnswerer = (method: string, params: unknown, signal: AbortSignal) => Promise<unknown>;

/** What following a task needs. */
export interface FollowContext {
  client: Client;
  era: TaskEra;
  /** Per request (tasks/get, tasks/result, tasks/cancel). */
  timeoutMs: number;
  /** Aborted: the call was stopped; tasks/cancel goes out. */
  signal: AbortSignal;
  bounds: PollBounds;
  answer?: InputAnswerer;
  /** Every state seen, in order (the handle first). */
  onUpdate: (task: WireTask, pollMs: number) => void;
}

/** The interval to wait before the next tasks/get. */
export function pollDelay(task: WireTask, b: PollBounds): number {
  const asked = task.pollIntervalMs;
  if (asked === undefined || !Number.isFinite(asked)) return b.fallbackMs;
  return Math.min(b.maxMs, Math.max(b.minMs, asked));
}

/**
 * Poll a task to its end and produce the CallToolResult a plain call would have: 2025 by
 * tasks/get, then tasks/result (which also carries a failed task's JSON-RPC error); 2026-07-28
 * by tasks/get alone (result or error inlined), answering inputRequests with tasks/update. A
 * stop sends tasks/cancel and rejects with the stop's reason.
 */
export async function followTask(ctx: FollowContext, handle: WireTask): Promise<CallToolResult> {
  let task = handle;
  ctx.onUpdate(task, pollDelay(task, ctx.bounds));
  const answered = new Set<string>();
  try {
    for (;;) {
      if (task.status === 'completed' || task.status === 'failed') return await finish(ctx, task);
      if (task.status === 'cancelled')
        throw new HostFailure('cancelled', `the server cancelled task ${task.taskId}`);
      if (task.status === 'input_required') {
        // 2025: tasks/result blocks while the server pushes its requests (answered by our handlers).
        if (ctx.era === 'legacy') return await finish(ctx, task);
        await answerInputs(ctx, task, answered);
      }
      expired(task);
      await sleep(pollDelay(task, ctx.bounds), ctx.signal);
      task = await get(ctx, task.taskId);
      ctx.onUpdate(task, pollDelay(task, ctx.bounds));
    }
  } catch (error) {
    if (!ctx.signal.aborted) throw error;
    await cancelTask(ctx, task);
    throw ctx.signal.reason instanceof Error ? ctx.signal.reason : error;
  }
}

async function get(ctx: FollowContext, taskId: string): Promise<WireTask> {
  const body = await ctx.client.request({ method: 'tasks/get', params: { taskId } }, AnyResult, opts(ctx));
  const task = readTask(ctx.era, body);
  if (!task || task.taskId !== taskId)
    throw new HostFailure(
      'invalid_result',
      `tasks/get for ${taskId} answered something that is not that task`,
    );
  return task;
}

async function finish(ctx: FollowContext, task: WireTask): Promise<CallToolResult> {
  if (ctx.era === 'legacy') {
    // A failed task's tasks/result is the JSON-RPC error the call would have had: it throws here.
    const body = await ctx.client.request(
      { method: 'tasks/result', params: { taskId: task.taskId } },
      AnyResult,
      // Blocks until the task ends (input_required): no per-request deadline, only the stop.
      { signal: ctx.signal, timeout: 2_147_483_647 },
    );
    return asCallToolResult(body, task.taskId);
  }
  if (task.status === 'failed') {
    const e = task.error;
    throw e
      ? new ProtocolError(e.code, e.message, e.data)
      : new HostFailure('error', `task ${task.taskId} failed`);
  }
  return asCallToolResult(task.result, task.taskId);
}

function asCallToolResult(body: unknown, taskId: string): CallToolResult {
  const withContent =
    typeof body === 'object' && body !== null && !('content' in body) ? { ...body, content: [] } : body;
  if (!isCallToolResult(withContent))
    throw new HostFailure('invalid_result', `task ${taskId} ended without a tool result`);
  return withContent as CallToolResult;
}

async function answerInputs(ctx: FollowContext, task: WireTask, answered: Set<string>): Promise<void> {
  const open = Object.entries(task.inputRequests ?? {}).filter(([key]) => !answered.has(key));
  if (open.length === 0) return;
  if (!ctx.answer)
    throw new HostFailure('unavailable', `task ${task.taskId} needs input this host cannot give`);
  const inputResponses: Record<string, unknown> = {};
  for (const [key, req] of open) {
    // Keys are unique over a task's life: one answer each, never asked twice (dedupe across polls).
    answered.add(key);
    inputResponses[key] = await ctx.answer(req.method, req.params, ctx.signal);
  }
  await ctx.client.request(
    { method: 'tasks/update', params: { taskId: task.taskId, inputResponses } },
    AnyResult,
    opts(ctx),
  );
}

/** Best effort: the stop already happened for the person; the server hears of it if it can. */
async function cancelTask(ctx: FollowContext, task: WireTask): Promise<void> {
  try {
    const body = await ctx.client.request(
      { method: 'tasks/cancel', params: { taskId: task.taskId } },
      AnyResult,
      { timeout: ctx.timeoutMs },
    );
    const after = readTask(ctx.era, body);
    ctx.onUpdate(after ?? { ...task, status: 'cancelled' }, pollDelay(task, ctx.bounds));
  } catch {
    ctx.onUpdate({ ...task, status: 'cancelled' }, pollDelay(task, ctx.bounds));
  }
}

function expired(task: WireTask): void {
  if (task.ttlMs == null || task.createdAt === undefined) return;
  if (Date.now() > task.createdAt + task.ttlMs)
    throw new HostFailure('timeout', `task ${task.taskId} outlived its time to live (${task.ttlMs} ms)`);
}

function opts(ctx: FollowContext) {
  return { signal: ctx.signal, timeout: ctx.timeoutMs };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
