import type { ChatSettings, Conversation, ConversationModelSettings } from '../../../shared/domain/chat.js';
import type { ConversationStore } from '../stores/conversation-store.js';

/** A change to a conversation's own model settings: a value sets a field, `null` returns it to the chat settings. */
export type ModelSettingsChange = {
  [K in keyof ConversationModelSettings]?: ConversationModelSettings[K] | null;
};

/** Apply `change` to the conversation in place; returns its model settings afterwards. */
export function applyModelSettings(
  conversation: Conversation,
  change: ModelSettingsChange,
): ConversationModelSettings {
  const next: ConversationModelSettings = { ...conversation.modelSettings };
  if (change.systemPrompt === null) delete next.systemPrompt;
  else if (change.systemPrompt !== undefined) next.systemPrompt = change.systemPrompt;
  if (change.temperature === null) delete next.temperature;
  else if (change.temperature !== undefined) next.temperature = change.temperature;
  if (Object.keys(next).length) conversation.modelSettings = next;
  else delete conversation.modelSettings;
  return { ...next };
}

/** The system prompt and temperature a run of `conversation` uses: its own, else the chat settings'. */
export function runModelSettings(
  conversation: Conversation,
  settings: ChatSettings,
): { userPrompt: string; temperature?: number } {
  const own = conversation.modelSettings ?? {};
  const temperature = own.temperature ?? settings.temperature;
  return {
    userPrompt: (own.systemPrompt ?? settings.systemPrompt ?? '').trim(),
    ...(temperature !== undefined ? { temperature } : {}),
  };
}

/** Apply `change` to the stored conversation `id` and save it; returns its model settings afterwards. */
export async function saveModelSettings(
  conversations: ConversationStore,
  id: string,
  change: ModelSettingsChange,
): Promise<ConversationModelSettings> {
  const conversation = await conversations.get(id);
  const next = applyModelSettings(conversation, change);
  await conversations.save(conversation);
  return next;
}
