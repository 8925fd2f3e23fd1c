import { Paperclip } from 'lucide-react';
import { handToChat } from '../../store/chat-handoff-store.js';

/**
 * "Attach to chat": the resource joins the chat composer's attachments (as its resource picker
 * would add it) and the app shows Chat; the next message sends its contents as context.
 */
export function AttachButton({ serverId, uri, name }: { serverId: string; uri: string; name: string }) {
  return (
    <button
      type="button"
      className="with-icon"
      title="Attach this resource to your next chat message"
      onClick={() => handToChat({ kind: 'resource', serverId, uri, name })}
      data-testid="resource-attach-to-chat"
    >
      <Paperclip size={14} aria-hidden="true" /> Attach to chat
    </button>
  );
}
