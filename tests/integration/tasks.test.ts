/**
 * Tool calls that servers run as tasks, in both eras: the 2025-11-25 experimental tasks
 * (task-server-2025.mjs) and the 2026-07-28 io.modelcontextprotocol/tasks extension
 * (task-server-2026.mjs). A task completes with the plain call's result, is cancelled with
 * tasks/cancel, is polled no faster than the server asks (within the host's bounds), and is
 * kept on disk so a restarted host says what it lost.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ToolTask } from '../../shared/domain/tasks.js';
import { HostEvents } from '../../electron/host/host-events.js';
import { TaskService } from '../../electron/host/tasks/task-service.js';
import {
  CleanupStack,
  connectedInfo,
  createTestHost,
  nodeServer,
  REPO_ROOT,
  rejection,
  summaryOf,
  textOf,
  waitFor,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';

const FIXTURES = {
  'task-2025': join(REPO_ROOT, 'tests/fixtures/task-server-2025.mjs'),
  'task-2026': join(REPO_ROOT, 'tests/fixtures/task-server-2026.mjs'),
} as const;

interface TaskLog {
  log: { method: string; taskId: string; at: number }[];
  tasks: { taskId: string; status: string; pollMs: number }[];
}

describe('tool calls as tasks', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  let t: TestHost;
  const changes: ToolTask[][] = [];
  const asked: string[] = [];

  before(async () => {
    t = await createTestHost(stack, {
      dataDir: true,
      handlers: {
        elicit: async (_serverId, request) => {
          asked.push(request.message);
          return { action: 'accept', content: { name: 'zoe' } };
        },
      },
      servers: {
        'task-2025': nodeServer(FIXTURES['task-2025']),
        'task-2026': nodeServer(FIXTURES['task-2026']),
      },
    });
    stack.defer(t.events.on('tasks.changed', (list) => changes.push(list)));
    await Promise.all([
      waitForState(t.host, 'task-2025', 'connected'),
      waitForState(t.host, 'task-2026', 'connected'),
    ]);
  });
  after(() => stack.run());

  const taskLog = async (id: string): Promise<TaskLog> =>
    JSON.parse(textOf(await t.host.callTool(id, 'task-log', {}))) as TaskLog;
  const taskOf = (callId: string) => t.tasks.list().find((x) => x.callId === callId);

  it('negotiates the eras the fixtures speak', () => {
    assert.equal(connectedInfo(summaryOf(t.host, 'task-2025')).protocolEra, 'legacy');
    assert.equal(connectedInfo(summaryOf(t.host, 'task-2026')).protocolEra, 'modern');
  });

  for (const id of ['task-2025', 'task-2026'] as const) {
    const era = id === 'task-2025' ? 'legacy' : 'modern';
    describe(id, () => {
      it('completes a task with the result a plain call would have', async () => {
        const callId = `${id}-done`;
        const result = await t.host.callTool(id, 'slow-task', { ms: 300, steps: 3 }, { callId });
        assert.equal(textOf(result), 'slept 300 ms in 3 steps');
        assert.notEqual(result.isError, true);
        const task = taskOf(callId);
        assert.ok(task, 'the task is listed under its call');
        assert.equal(task.status, 'completed');
        assert.equal(task.era, era);
        assert.equal(task.serverId, id);
        assert.equal(task.tool, 'slow-task');
        // The server's status messages reached the list while it ran.
        const seen = changes.flat().filter((x) => x.callId === callId);
        assert.ok(
          seen.some((x) => x.status === 'working' && /^step \d of 3$/.test(x.statusMessage ?? '')),
          JSON.stringify(seen),
        );
        const log = await taskLog(id);
        assert.ok(
          log.log.some((e) => e.method === 'tasks/get' && e.taskId === task.taskId),
          'the host polled',
        );
      });

      it('cancels a running task with tasks/cancel', async () => {
        const callId = `${id}-cancel`;
        const call = t.host.callTool(id, 'slow-task', { ms: 20_000, steps: 4 }, { callId });
        const running = await waitFor('the task to run', () => {
          const x = taskOf(callId);
          return x?.status === 'working' ? x : undefined;
        });
        const settled = rejection(call);
        const cancelled = await t.router.handle('tasks.cancel', { callId });
        assert.deepEqual(cancelled, { ok: true, value: { cancelled: true } });
        assert.equal((await settled).code, 'cancelled');
        assert.equal(taskOf(callId)?.status, 'cancelled');
        const log = await taskLog(id);
        assert.ok(
          log.log.some((e) => e.method === 'tasks/cancel' && e.taskId === running.taskId),
          'the server saw tasks/cancel',
        );
        assert.equal(log.tasks.find((x) => x.taskId === running.taskId)?.status, 'cancelled');
      });

      it("polls no faster than the server's pollInterval", async () => {
        const callId = `${id}-poll`;
        await t.host.callTool(id, 'slow-task', { ms: 1_300, steps: 2, pollMs: 400 }, { callId });
        const taskId = taskOf(callId)?.taskId;
        assert.equal(taskOf(callId)?.pollIntervalMs, 400);
        const gets = (await taskLog(id)).log.filter((e) => e.method === 'tasks/get' && e.taskId === taskId);
        assert.ok(gets.length >= 2, `polled ${gets.length} times`);
        for (let i = 1; i < gets.length; i++) {
          const gap = gets[i].at - gets[i - 1].at;
          // Slowness only widens the gaps; a host ignoring the interval would show ~100 ms ones.
          assert.ok(gap >= 350, `gap ${gap} ms between polls (server asked 400)`);
        }
      });

      it('clamps a pollInterval outside the bounds', async () => {
        const fast = `${id}-fast`;
        await t.host.callTool(id, 'slow-task', { ms: 400, steps: 2, pollMs: 1 }, { callId: fast });
        assert.equal(taskOf(fast)?.pollIntervalMs, 100, 'a 1 ms interval is raised to the floor');
        const taskId = taskOf(fast)?.taskId;
        const gets = (await taskLog(id)).log.filter((e) => e.method === 'tasks/get' && e.taskId === taskId);
        for (let i = 1; i < gets.length; i++) assert.ok(gets[i].at - gets[i - 1].at >= 80);
        const slow = `${id}-slow`;
        const result = await t.host.callTool(
          id,
          'slow-task',
          { ms: 100, steps: 1, pollMs: 3_600_000 },
          { callId: slow },
        );
        assert.equal(textOf(result), 'slept 100 ms in 1 steps');
        assert.equal(taskOf(slow)?.pollIntervalMs, 5_000, 'an hour-long interval is lowered to the ceiling');
      });
    });
  }

  it('2026-07-28: answers a task’s input request and sends it with tasks/update', async () => {
    const callId = 'task-2026-ask';
    const result = await t.host.callTool('task-2026', 'slow-task', { ms: 200, askName: true }, { callId });
    assert.equal(textOf(result), 'slept 200 ms in 3 steps for zoe');
    assert.ok(asked.includes('Whose task is this?'), 'the elicitation reached the person');
    const taskId = taskOf(callId)?.taskId;
    const updates = (await taskLog('task-2026')).log.filter(
      (e) => e.method === 'tasks/update' && e.taskId === taskId,
    );
    assert.equal(updates.length, 1, 'one tasks/update: the input request is answered once across polls');
  });

  it('keeps tasks on disk; a restarted host marks the ones it was following as interrupted', async () => {
    const callId = 'task-2025-persist';
    const call = t.host.callTool('task-2025', 'slow-task', { ms: 20_000 }, { callId });
    const running = await waitFor('the task to run', () => taskOf(callId));
    // A second service over the same file stands for the next start of the host.
    const path = join(t.dir, 'data', 'tasks.json');
    const next = await waitFor('the file to hold the running task', async () => {
      const s = await TaskService.open({ events: new HostEvents(), path });
      return s.list().some((x) => x.taskId === running.taskId) ? s : undefined;
    });
    const restored = next.list().find((x) => x.taskId === running.taskId);
    assert.equal(restored?.status, 'interrupted');
    assert.equal(next.list().find((x) => x.callId === 'task-2025-done')?.status, 'completed');
    await next.dispose();
    const settled = rejection(call);
    assert.equal(t.host.cancel(callId), true);
    assert.equal((await settled).code, 'cancelled');
  });
});
