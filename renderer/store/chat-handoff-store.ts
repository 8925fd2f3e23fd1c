import { createStore } from 'zustand/vanilla';
import type { GetPromptResult } from '../../shared/domain/mcp-types.js';

/**
 * Something another view hands to the chat composer: a prompt a person fetched (its messages
 * become the draft) or a resource to attach as context.
 */
export type ChatHandoff =
  | { kind: 'prompt'; serverId: string; name: string; result: GetPromptResult }
  | { kind: 'resource'; serverId: string; uri: string; name: string };

/** Hand-offs not yet taken by the composer, and how many were ever made (the navigation cue). */
export interface ChatHandoffState {
  queue: ChatHandoff[];
  count: number;
}

/**
 * The one place views meet the chat composer. Why a store rather than props: views may not
 * import each other (DESIGN.md §6.9), and the composer stays mounted while hidden, so a queue
 * it drains is simpler than threading callbacks through the app shell. A queue, not a slot:
 * two resources attached in a row must both arrive.
 */
export const chatHandoffStore = createStore<ChatHandoffState>(() => ({ queue: [], count: 0 }));

/** Queue `handoff` for the composer; the app shell reacts by showing Chat. */
export function handToChat(handoff: ChatHandoff): void {
  chatHandoffStore.setState((s) => ({ queue: [...s.queue, handoff], count: s.count + 1 }));
}

/** Take every queued hand-off (oldest first), leaving the queue empty. */
export function takeHandoffs(): ChatHandoff[] {
  const { queue } = chatHandoffStore.getState();
  if (queue.length > 0) chatHandoffStore.setState({ queue: [] });
  return queue;
}
