import type { chatChannels } from '../../../shared/ipc/channels/chat-channels.js';
import type { HandlersOf } from '../route-handlers.js';
import { exportJson, exportMarkdown } from '../stores/conversation-export.js';
import type { SettingsStore } from '../stores/settings-store.js';
import type { ChatService } from './chat-service.js';
import type { ProviderFactory } from './provider-factory.js';

/** What the chat.* channels are bound to. */
export interface ChatRouteDeps {
  chat: ChatService;
  providers: ProviderFactory;
  settings: SettingsStore;
}

/** The chat.* channels: conversations, runs, exports and the models a provider offers. */
export function chatHandlers({
  chat,
  providers,
  settings,
}: ChatRouteDeps): HandlersOf<keyof typeof chatChannels> {
  return {
    'chat.list': () => chat.list(),
    'chat.get': (r) => chat.get(r.id),
    'chat.create': (r) => chat.create(r.title),
    'chat.rename': (r) => chat.rename(r.id, r.title),
    'chat.delete': async (r) => {
      await chat.delete(r.id);
      return null;
    },
    'chat.export': async (r) => {
      const c = await chat.get(r.id);
      const base = fileBase(c.title);
      return r.format === 'markdown'
        ? { filename: `${base}.md`, mimeType: 'text/markdown', content: exportMarkdown(c) }
        : { filename: `${base}.json`, mimeType: 'application/json', content: exportJson(c) };
    },
    'chat.send': async (r) => ({
      runId: (await chat.send(r.conversationId, r.text, r.attachments, undefined, r.files)).runId,
    }),
    'chat.attachFile': (r) => chat.attachFile(r.name, r.mimeType, r.data),
    'chat.setModelSettings': ({ conversationId, ...change }) => chat.setModelSettings(conversationId, change),
    'chat.stop': async (r) => ({ stopped: await chat.stop(r.conversationId) }),
    'chat.retry': async (r) => ({ runId: (await chat.retry(r.conversationId, r.messageId)).runId }),
    'chat.edit': async (r) => ({ runId: (await chat.edit(r.conversationId, r.messageId, r.text)).runId }),
    'chat.search': (r) => chat.search(r.query),
    'chat.setToolSwitches': (r) =>
      chat.setToolSwitches(r.conversationId, {
        ...(r.servers ? { servers: r.servers } : {}),
        ...(r.tools ? { tools: r.tools } : {}),
      }),
    'chat.toolOffer': (r) => chat.toolOffer(r.conversationId),
    'chat.setOfferSettings': ({ conversationId, ...change }) => chat.setOfferSettings(conversationId, change),
    'chat.models': async (r) => (await providers.create(settings.get(), r.provider)).listModels(),
  };
}

/** A download's file name from a conversation title: safe characters only, never empty. */
function fileBase(title: string): string {
  return (
    title
      .replace(/[^A-Za-z0-9 _.-]+/g, '')
      .trim()
      .slice(0, 60) || 'conversation'
  );
}
