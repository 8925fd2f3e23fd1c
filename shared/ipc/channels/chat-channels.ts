import { z } from 'zod';
import type {
  ChatFile,
  Conversation,
  ConversationModelSettings,
  ConversationMatch,
  ConversationSummary,
  ToolOffer,
  ToolSwitches,
} from '../../domain/chat.js';
import type { OfferOverrides } from '../../domain/tool-selection.js';
import { MAX_CHAT_FILE_BYTES, MAX_FILES_PER_MESSAGE } from '../../domain/chat-files.js';
import { MAX_SYSTEM_PROMPT, temperatureSchema } from '../../domain/chat-settings.js';
import { convId, empty, providerId, serverId, typed } from './channel-kit.js';

const messageId = z.string().min(1).max(100);
const switchMap = z.record(z.string().min(1).max(300), z.boolean().nullable());
const fileId = z.string().regex(/^[0-9a-f]{64}$/, 'not a file id');

/** Conversations and the runs that answer in them. */
export const chatChannels = {
  /** Conversations: list, open, create, rename, delete, export. */
  'chat.list': { request: empty, response: typed<ConversationSummary[]>() },
  'chat.get': { request: z.object({ id: convId }).strict(), response: typed<Conversation>() },
  'chat.create': {
    request: z.object({ title: z.string().max(200).optional() }).strict(),
    response: typed<Conversation>(),
  },
  'chat.rename': {
    request: z.object({ id: convId, title: z.string().min(1).max(200) }).strict(),
    response: typed<ConversationSummary>(),
  },
  'chat.delete': { request: z.object({ id: convId }).strict(), response: typed<null>() },
  'chat.export': {
    request: z.object({ id: convId, format: z.enum(['markdown', 'json']) }).strict(),
    response: typed<{ filename: string; mimeType: string; content: string }>(),
  },
  /** Send a message and start a run; its progress arrives as `chat.event`. */
  'chat.send': {
    request: z
      .object({
        conversationId: convId,
        text: z.string().max(200_000),
        attachments: z
          .array(z.object({ serverId, uri: z.string().min(1).max(8192) }).strict())
          .max(20)
          .optional(),
        /** Local files stored first with `chat.attachFile`, in the order they were attached. */
        files: z.array(fileId).max(MAX_FILES_PER_MESSAGE).optional(),
      })
      .strict(),
    response: typed<{ runId: string }>(),
  },
  /** Keep a local file (or image) for a message about to be sent; the host checks its type and size. */
  'chat.attachFile': {
    request: z
      .object({
        name: z.string().min(1).max(255),
        mimeType: z.string().max(200),
        data: z
          .string()
          .max(Math.ceil(MAX_CHAT_FILE_BYTES / 3) * 4 + 4, 'the file is larger than 5 MiB')
          .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'the file data is not base64'),
      })
      .strict(),
    response: typed<ChatFile>(),
  },
  /** One conversation's own system prompt and temperature (`null` returns a field to the chat settings). */
  'chat.setModelSettings': {
    request: z
      .object({
        conversationId: convId,
        systemPrompt: z.string().max(MAX_SYSTEM_PROMPT).nullable().optional(),
        temperature: temperatureSchema.nullable().optional(),
      })
      .strict(),
    response: typed<ConversationModelSettings>(),
  },
  /** Stop a run: cancels the model stream, pending approvals and in-flight tool calls. */
  'chat.stop': {
    request: z.object({ conversationId: convId }).strict(),
    response: typed<{ stopped: boolean }>(),
  },
  /** Run again from a message (a user turn, or the user turn an assistant message answered); what followed is dropped. */
  'chat.retry': {
    request: z.object({ conversationId: convId, messageId }).strict(),
    response: typed<{ runId: string }>(),
  },
  /** Replace a user message's text, drop the turns after it, and answer it again. */
  'chat.edit': {
    request: z.object({ conversationId: convId, messageId, text: z.string().max(200_000) }).strict(),
    response: typed<{ runId: string }>(),
  },
  /** Stored conversations whose title or message text contains the query. */
  'chat.search': {
    request: z.object({ query: z.string().max(500) }).strict(),
    response: typed<ConversationMatch[]>(),
  },
  /** One conversation's own server/tool switches (`null` returns one to the chat settings). */
  'chat.setToolSwitches': {
    request: z
      .object({ conversationId: convId, servers: switchMap.optional(), tools: switchMap.optional() })
      .strict(),
    response: typed<ToolSwitches>(),
  },
  /** One conversation's own tool budget (`null` returns a field to the chat settings). */
  'chat.setOfferSettings': {
    request: z
      .object({
        conversationId: convId,
        mode: z.enum(['search', 'all']).nullable().optional(),
        maxTools: z.number().int().min(1).max(128).nullable().optional(),
        maxTokens: z.number().int().min(500).max(500_000).nullable().optional(),
      })
      .strict(),
    response: typed<OfferOverrides>(),
  },
  /** What the next turn would offer the model; with a conversation, under its own switches. */
  'chat.toolOffer': {
    request: z.object({ conversationId: convId.optional() }).strict(),
    response: typed<ToolOffer>(),
  },
  'chat.models': { request: z.object({ provider: providerId }).strict(), response: typed<string[]>() },
} as const;
