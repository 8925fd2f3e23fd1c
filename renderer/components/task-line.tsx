import { useState } from 'react';
import { isTaskOver, type ToolTask, type ToolTaskStatus } from '../../shared/domain/tasks.js';
import { useNow } from '../hooks/use-now.js';
import { useCancelTask, useTaskOfCall } from '../hooks/use-tasks.js';
import { Icon } from './icons.js';

const LABEL: Record<ToolTaskStatus, string> = {
  working: 'running as a task',
  input_required: 'task waiting for input',
  completed: 'task completed',
  failed: 'task failed',
  cancelled: 'task cancelled',
  interrupted: 'task interrupted',
};

/**
 * The server task a tool call runs as: its status, the server's latest message, how long it has
 * run, and Cancel (tasks/cancel). Read from the host's task list, so it is back after a reload.
 */
export function TaskLine({ callId }: { callId: string | null }) {
  const task = useTaskOfCall(callId);
  if (!task) return null;
  return <TaskLineOf task={task} />;
}

function TaskLineOf({ task }: { task: ToolTask }) {
  const over = isTaskOver(task.status);
  const now = useNow(!over);
  const cancel = useCancelTask();
  const [cancelling, setCancelling] = useState(false);
  const elapsedS = Math.max(0, Math.round(((task.endedAt ?? now) - task.startedAt) / 1000));
  const onCancel = () => {
    setCancelling(true);
    void cancel(task.callId ?? '').finally(() => setCancelling(false));
  };
  return (
    <div
      className="task-line"
      data-testid="task-line"
      data-task-status={task.status}
      data-task-id={task.taskId}
    >
      <span className={`badge ${over ? 'subtle' : 'status-running'}`} data-testid="task-status">
        {LABEL[task.status]}
      </span>
      {task.statusMessage && (
        <span className="small-print task-message" data-testid="task-message">
          {task.statusMessage}
        </span>
      )}
      <span className="muted small-print" data-testid="task-elapsed" aria-label={`${elapsedS} seconds`}>
        {elapsedS} s
      </span>
      {!over && task.callId && (
        <button
          type="button"
          className="small"
          onClick={onCancel}
          disabled={cancelling}
          data-testid="task-cancel"
        >
          <Icon name="stop" /> {cancelling ? 'Cancelling…' : 'Cancel task'}
        </button>
      )}
    </div>
  );
}
