import type { ChatMessage } from '../../../shared/domain/chat.js';
import { isTaskOver } from '../../../shared/domain/tasks.js';
import { useSnapshot } from '../../hooks/use-host-state.js';
import { Icon } from '../icons.js';
import { TaskLine } from '../task-line.js';

/**
 * Tasks of this conversation still running whose tool card is not in the thread: a reloaded
 * window gets the stored conversation, which holds a run's calls only once the run has ended,
 * so the task (and its Cancel) is shown here from tasks.list until the card takes over.
 */
export function RunningTasks({
  conversationId,
  messages,
}: {
  conversationId: string;
  messages: ChatMessage[];
}) {
  const tasks = useSnapshot('tasks');
  if (tasks.kind !== 'ready') return null;
  const shown = new Set<string>();
  for (const m of messages)
    for (const part of m.parts) if (part.type === 'tool_call') shown.add(part.call.id);
  const orphans = tasks.value.filter(
    (t) => t.conversationId === conversationId && !isTaskOver(t.status) && t.callId && !shown.has(t.callId),
  );
  return orphans.map((t) => (
    <div
      className="tool-card tool-card-running"
      data-testid="task-card"
      data-call-id={t.callId}
      key={t.taskId}
    >
      <div className="tool-card-head">
        <Icon name="tools" className="tool-card-icon" />
        <span className="badge subtle">{t.serverId}</span>
        <strong className="tool-card-name">{t.tool}</strong>
      </div>
      <TaskLine callId={t.callId ?? null} />
    </div>
  ));
}
