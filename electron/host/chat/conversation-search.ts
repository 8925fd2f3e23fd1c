import type { ChatMessage, ConversationMatch } from '../../../shared/domain/chat.js';
import type { ConversationStore } from '../stores/conversation-store.js';

/** The most matches one search returns. */
const MAX_MATCHES = 200;
/** Characters of context either side of a hit in a snippet. */
const CONTEXT = 40;

/**
 * Search stored conversations by title and by the text of their messages (what was typed,
 * what the model wrote, attachment names), case-insensitively; newest first. Conversations
 * that cannot be read are skipped: the list already reports them.
 */
export async function searchConversations(
  store: ConversationStore,
  query: string,
): Promise<ConversationMatch[]> {
  const needle = query.trim().toLowerCase();
  if (!needle) return [];
  const matches: ConversationMatch[] = [];
  for (const summary of await store.list()) {
    if (matches.length >= MAX_MATCHES) break;
    const inTitle = summary.title.toLowerCase().indexOf(needle);
    if (inTitle >= 0) {
      matches.push({ id: summary.id, in: 'title', snippet: summary.title });
      continue;
    }
    if (summary.messageCount === 0) continue;
    const conversation = await store.get(summary.id).catch(() => null);
    if (!conversation) continue;
    for (const message of conversation.messages) {
      const text = messageText(message);
      const at = text.toLowerCase().indexOf(needle);
      if (at >= 0) {
        matches.push({ id: summary.id, in: 'message', snippet: snippetAround(text, at, needle.length) });
        break;
      }
    }
  }
  return matches;
}

/** The searchable text of a message. */
export function messageText(message: ChatMessage): string {
  return message.parts
    .map((p) => (p.type === 'text' ? p.text : p.type === 'attachment' ? p.attachment.name : ''))
    .filter(Boolean)
    .join('\n');
}

function snippetAround(text: string, at: number, length: number): string {
  const start = Math.max(0, at - CONTEXT);
  const end = Math.min(text.length, at + length + CONTEXT);
  const body = text.slice(start, end).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}
