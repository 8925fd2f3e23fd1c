import { useConversations } from '../../hooks/use-conversations.js';

/** The open conversation's token usage as its provider reported it (nothing until a model has answered). */
export function ConversationTokens({ conversationId }: { conversationId: string | null }) {
  const list = useConversations();
  if (!conversationId || list.kind !== 'ready') return null;
  const usage = list.conversations.find((c) => c.id === conversationId)?.usage;
  if (!usage) return null;
  return (
    <span
      className="muted conversation-tokens"
      title={`Tokens reported by the model provider: ${usage.totalTokens} in total`}
      data-testid="conversation-tokens"
    >
      {usage.inputTokens.toLocaleString('en-US')} in · {usage.outputTokens.toLocaleString('en-US')} out tokens
    </span>
  );
}
