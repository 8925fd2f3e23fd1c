import { readFile } from 'node:fs/promises';
import type { CallToolResult } from '../../../shared/domain/mcp-types.js';
import { isTaskOver, type ToolTask, type ToolTaskStatus } from '../../../shared/domain/tasks.js';
import type { CallOptions, SessionRequests } from '../connection/session-requests.js';
import type { HostEvents } from '../host-events.js';
import { SerialWriter } from '../util/atomic-write.js';
import type { Disposable } from '../util/disposable.js';
import { Cancellation } from '../util/errors.js';
import { DEFAULT_POLL_BOUNDS, followTask, type PollBounds } from './task-follow.js';
import { taskHandleOf } from '../connection/task-handle-tap.js';
import type { WireTask } from '../connection/task-wire.js';

/** Tasks kept (running ones always; the most recent ended ones up to this count). */
const KEPT = 50;
/** A server's status message is shown, not trusted: clipped. */
const STATUS_CHARS = 500;
/** What we ask a 2025 server to keep a task for (it may choose otherwise). */
const REQUESTED_TTL_MS = 60 * 60 * 1000;

/** What TaskService needs. */
export interface TaskServiceDeps {
  events: HostEvents;
  /** `<dataDir>/tasks.json`; absent keeps tasks in memory (CLI one-shots, tests). */
  path?: string;
  /** Answers a 2026-07-28 task's inputRequests for a server (absent: such a task fails). */
  answer?: (serverId: string, method: string, params: unknown, signal: AbortSignal) => Promise<unknown>;
  bounds?: PollBounds;
}

/** One tool call as ServerCalls hands it over. */
export interface TaskCallRequest {
  serverId: string;
  tool: string;
  args: Record<string, unknown>;
  callId?: string;
  conversationId?: string;
  /** Absent for a call nobody can cancel (it has no call id). */
  signal?: AbortSignal;
  timeoutMs?: number;
  onProgress?: CallOptions['onProgress'];
}

/**
 * Tool calls that servers run as tasks. Every call passes through callTool(): a tool that a
 * 2025-11-25 server lets run as a task (capability tasks.requests.tools.call and the tool's
 * execution.taskSupport) is sent task-augmented; any call a server answers with a task handle
 * (2026-07-28: its choice, once we declare the extension) is polled to the end and yields the
 * same CallToolResult a plain call would. The tasks (id, server, status, message, the call and
 * conversation they belong to) are kept and persisted, so a reloaded window finds them
 * (tasks.list) and a restarted host says which ones it lost.
 */
export class TaskService implements Disposable {
  private readonly tasks = new Map<string, ToolTask>();
  /** Stops for running tasks by task id (the call's own signal is wired to each). */
  private readonly stops = new Map<string, AbortController>();
  private readonly writer: SerialWriter | undefined;
  private readonly bounds: PollBounds;

  private constructor(private readonly deps: TaskServiceDeps) {
    this.writer = deps.path ? new SerialWriter(deps.path) : undefined;
    this.bounds = deps.bounds ?? DEFAULT_POLL_BOUNDS;
  }

  /** Open the store: tasks a previous run left running are marked interrupted (nobody polls them now). */
  static async open(deps: TaskServiceDeps): Promise<TaskService> {
    const service = new TaskService(deps);
    if (deps.path) {
      const saved = await readFile(deps.path, 'utf8').then(
        (text) => JSON.parse(text) as unknown,
        () => [],
      );
      const now = Date.now();
      for (const t of Array.isArray(saved) ? (saved as ToolTask[]).slice(0, KEPT) : []) {
        if (typeof t?.taskId !== 'string' || typeof t.serverId !== 'string') continue;
        service.tasks.set(key(t.serverId, t.taskId), isTaskOver(t.status) ? t : interrupted(t, now));
      }
    }
    return service;
  }

  /** Call a tool, following it as a task when the server runs it as one. */
  async callTool(requests: SessionRequests, call: TaskCallRequest): Promise<CallToolResult> {
    const access = requests.taskAccess(call.tool);
    const caps = access.client.getServerCapabilities();
    const legacy = (access.client.getProtocolEra() ?? 'legacy') === 'legacy';
    const support = taskSupportOf(access.tool);
    // 2025: only where both the server and the tool say so; 2026-07-28 is the server's call per request.
    const asTask = legacy && caps?.tasks?.requests?.tools?.call !== undefined && support !== 'forbidden';
    const opts: CallOptions = {
      ...(call.signal ? { signal: call.signal } : {}),
      ...(call.timeoutMs !== undefined ? { timeoutMs: call.timeoutMs } : {}),
      ...(call.onProgress ? { onProgress: call.onProgress } : {}),
      ...(asTask ? { task: { ttl: REQUESTED_TTL_MS } } : {}),
    };
    try {
      return await requests.callTool(call.tool, call.args, opts);
    } catch (error) {
      const handle = taskHandleOf(error);
      if (!handle) throw error;
      // Followed even from a server that never declared the extension: the work has started.
      return await this.follow(requests, call, handle.era, handle.task, access.timeout);
    }
  }

  /** Running and recent tasks, newest first. */
  list(): ToolTask[] {
    return [...this.tasks.values()].sort((a, b) => b.startedAt - a.startedAt);
  }

  /** Stop a running task by task id or by the call it belongs to; false when none is running. */
  cancel(target: { taskId?: string; callId?: string }): boolean {
    for (const t of this.tasks.values()) {
      if (isTaskOver(t.status)) continue;
      if (target.taskId !== undefined ? t.taskId !== target.taskId : t.callId !== target.callId) continue;
      const stop = this.stops.get(key(t.serverId, t.taskId));
      if (!stop) continue;
      stop.abort(new Cancellation('cancelled by the user'));
      return true;
    }
    return false;
  }

  /** Shutdown: running tasks stop being polled (their servers hear tasks/cancel where possible). */
  async dispose(): Promise<void> {
    for (const stop of this.stops.values()) stop.abort(new Cancellation('the host is shutting down'));
    await this.writer?.flush().catch(() => undefined);
  }

  private async follow(
    requests: SessionRequests,
    call: TaskCallRequest,
    era: 'legacy' | 'modern',
    handle: WireTask,
    timeoutMs: number,
  ): Promise<CallToolResult> {
    const k = key(call.serverId, handle.taskId);
    const stop = new AbortController();
    const onCallAbort = () => stop.abort(call.signal?.reason);
    call.signal?.addEventListener('abort', onCallAbort, { once: true });
    if (call.signal?.aborted) onCallAbort();
    this.stops.set(k, stop);
    const now = Date.now();
    this.put({
      taskId: handle.taskId,
      serverId: call.serverId,
      tool: call.tool,
      era,
      ...(call.callId ? { callId: call.callId } : {}),
      ...(call.conversationId ? { conversationId: call.conversationId } : {}),
      status: handle.status,
      startedAt: now,
      updatedAt: now,
      pollIntervalMs: this.bounds.fallbackMs,
    });
    const answer = this.deps.answer;
    try {
      return await followTask(
        {
          client: requests.taskAccess(call.tool).client,
          era,
          timeoutMs,
          signal: stop.signal,
          bounds: this.bounds,
          ...(answer ? { answer: (m, p, s) => answer(call.serverId, m, p, s) } : {}),
          onUpdate: (t, pollMs) => this.update(k, t.status, t.statusMessage, pollMs),
        },
        handle,
      );
    } catch (error) {
      const current = this.tasks.get(k);
      // A stop or a failure of ours (the server went away, a bad answer) ends what we track.
      if (current && !isTaskOver(current.status))
        this.update(k, stop.signal.aborted ? 'cancelled' : 'failed', current.statusMessage);
      throw error;
    } finally {
      call.signal?.removeEventListener('abort', onCallAbort);
      this.stops.delete(k);
    }
  }

  private update(
    k: string,
    status: ToolTaskStatus,
    statusMessage: string | undefined,
    pollMs?: number,
  ): void {
    const t = this.tasks.get(k);
    if (!t || isTaskOver(t.status)) return;
    const now = Date.now();
    const { statusMessage: _old, ...rest } = t;
    this.put({
      ...rest,
      status,
      ...(statusMessage ? { statusMessage: statusMessage.slice(0, STATUS_CHARS) } : {}),
      updatedAt: now,
      ...(isTaskOver(status) ? { endedAt: now } : {}),
      pollIntervalMs: pollMs ?? t.pollIntervalMs,
    });
  }

  private put(task: ToolTask): void {
    const k = key(task.serverId, task.taskId);
    const before = this.tasks.get(k);
    this.tasks.set(k, task);
    this.trim();
    // Polls that change nothing are not news (nor a disk write).
    if (before && before.status === task.status && before.statusMessage === task.statusMessage) return;
    const list = this.list();
    this.deps.events.emit('tasks.changed', list);
    void this.writer?.write(JSON.stringify(list)).catch(() => undefined);
  }

  private trim(): void {
    if (this.tasks.size <= KEPT) return;
    const ended = this.list().filter((t) => isTaskOver(t.status));
    for (const t of ended.slice(Math.max(0, KEPT - (this.tasks.size - ended.length))))
      this.tasks.delete(key(t.serverId, t.taskId));
  }
}

function key(serverId: string, taskId: string): string {
  return `${serverId}\u0000${taskId}`;
}

function interrupted(t: ToolTask, now: number): ToolTask {
  return {
    ...t,
    status: 'interrupted',
    statusMessage: 'MCP Desk restarted while this task ran; its result was not collected',
    updatedAt: now,
    endedAt: now,
  };
}

/** A tool's execution.taskSupport (2025-11-25), read defensively from the listed tool. */
function taskSupportOf(tool: unknown): 'forbidden' | 'optional' | 'required' {
  const execution = (tool as { execution?: { taskSupport?: unknown } } | undefined)?.execution;
  const s = execution?.taskSupport;
  return s === 'optional' || s === 'required' ? s : 'forbidden';
}
