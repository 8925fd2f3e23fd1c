import type { OpenView } from './app-views.js';

/** The most of one view's context the model is given (characters). */
export const MAX_VIEW_CONTEXT_CHARS = 16_000;

/** What a view last said about itself (`ui/update-model-context`). */
export interface ViewContext {
  content?: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

interface Entry {
  conversationId: string;
  serverId: string;
  tool: string;
  text: string;
  at: number;
}

/**
 * The latest model context each open view of a conversation asked for. Each update replaces
 * the view's previous one (the spec: the host keeps the last); the chat adds every open
 * view's context to the user turn of the conversation's next run, so the model sees the view's
 * current state then, never a history of states.
 */
export class AppModelContext {
  private readonly byView = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Replace `view`'s context; an empty update clears it. Needs the view to be in a conversation. */
  set(view: OpenView & { conversationId: string }, update: ViewContext): void {
    const text = renderViewContext(update);
    if (!text) {
      this.byView.delete(view.viewId);
      return;
    }
    this.byView.set(view.viewId, {
      conversationId: view.conversationId,
      serverId: view.serverId,
      tool: view.toolName,
      text,
      at: this.now(),
    });
  }

  /** The view is gone: its context goes with it. */
  forget(viewId: string): void {
    this.byView.delete(viewId);
  }

  /**
   * The notes to add to `conversationId`'s next model turn, one per view still open (the
   * others are dropped here, so a view evicted without a close leaves nothing behind).
   */
  notesFor(conversationId: string, isOpen: (viewId: string) => boolean): string[] {
    const notes: string[] = [];
    for (const [viewId, e] of this.byView) {
      if (!isOpen(viewId)) {
        this.byView.delete(viewId);
        continue;
      }
      if (e.conversationId !== conversationId) continue;
      notes.push(
        `Context from the interactive view of the tool "${e.tool}" (MCP server "${e.serverId}"), as the view last reported it; it was not written by the user:\n${e.text}`,
      );
    }
    return notes;
  }
}

/** A context update as the model reads it: its text blocks and structured content, capped. */
export function renderViewContext(update: ViewContext): string {
  const parts: string[] = [];
  for (const block of update.content ?? []) {
    if (block.type === 'text' && block.text) parts.push(block.text);
    else if (block.type !== 'text') parts.push(`[${block.type} content not included]`);
  }
  if (update.structuredContent && Object.keys(update.structuredContent).length)
    parts.push(JSON.stringify(update.structuredContent));
  const text = parts.join('\n');
  return text.length > MAX_VIEW_CONTEXT_CHARS ? `${text.slice(0, MAX_VIEW_CONTEXT_CHARS)}…` : text;
}
