/**
 * Long-running tool calls that a server runs as a task (2025-11-25 experimental tasks, or the
 * 2026-07-28 `io.modelcontextprotocol/tasks` extension), as the host tracks them.
 */

/** The protocol's task states, plus `interrupted`: MCP Desk restarted while the task ran. */
export type ToolTaskStatus =
  'working' | 'input_required' | 'completed' | 'failed' | 'cancelled' | 'interrupted';

/** One task-based tool call: which server and call it belongs to and where it stands. */
export interface ToolTask {
  /** The server's id for the task. */
  taskId: string;
  serverId: string;
  tool: string;
  /** Which wire the task runs on: 2025 experimental tasks or the 2026-07-28 extension. */
  era: 'legacy' | 'modern';
  /** The tool call it belongs to (the chat's or the Tools view's call id). */
  callId?: string;
  /** The conversation of a chat call. */
  conversationId?: string;
  status: ToolTaskStatus;
  /** The server's latest words on the status (shown as is, clipped). */
  statusMessage?: string;
  /** Epoch ms: when the host learned of the task, when it last changed, when it ended. */
  startedAt: number;
  updatedAt: number;
  endedAt?: number;
  /** The polling interval in use: the server's suggestion within the host's bounds. */
  pollIntervalMs: number;
}

/** True once a task can no longer change. */
export function isTaskOver(status: ToolTaskStatus): boolean {
  return status !== 'working' && status !== 'input_required';
}
