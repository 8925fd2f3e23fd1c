import type { toolSelectionChannels } from '../../../shared/ipc/channels/tool-selection-channels.js';
import type { ChatService } from '../chat/chat-service.js';
import type { HandlersOf } from '../route-handlers.js';
import type { SettingsStore } from '../stores/settings-store.js';
import type { ToolSelection } from './tool-selection.js';

/** The tools.search channel: the chat's own ranking, for the Tools view. */
export function toolSelectionHandlers(deps: {
  selection: ToolSelection;
  settings: SettingsStore;
  chat: ChatService;
}): HandlersOf<keyof typeof toolSelectionChannels> {
  return {
    'tools.search': async (r) => {
      const settings = r.offerable
        ? await deps.chat.effectiveSettings(r.conversationId)
        : deps.settings.get();
      return deps.selection.search(r.query, {
        limit: r.limit ?? 50,
        ...(r.offerable ? { settings } : {}),
      });
    },
  };
}
