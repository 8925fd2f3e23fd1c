import { z } from 'zod';
import type { CatalogSnapshot } from '../../domain/catalog.js';
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '../../domain/mcp-types.js';
import { empty, serverId, typed } from './channel-kit.js';

/** Tool arguments: a JSON object, whatever the tool's schema says (the server validates). */
const jsonObject = z.record(z.string(), z.unknown());
/** Ids the renderer picks for calls it may later cancel or follow. */
const callId = z.string().min(1).max(100);

/** What the servers offer, and using it: tools, resources, prompts and completions. */
export const catalogChannels = {
  'catalog.get': { request: empty, response: typed<CatalogSnapshot>() },

  /** Call a tool; progress arrives as `tool.progress` events carrying the same callId. */
  'tools.call': {
    request: z
      .object({
        serverId,
        tool: z.string().min(1),
        args: jsonObject,
        callId,
        timeoutMs: z.number().int().min(100).max(3_600_000).optional(),
      })
      .strict(),
    response: typed<CallToolResult>(),
  },
  /** Cancel an in-flight call; the server receives notifications/cancelled. */
  'tools.cancel': { request: z.object({ callId }).strict(), response: typed<{ cancelled: boolean }>() },

  'resources.read': {
    request: z.object({ serverId, uri: z.string().min(1).max(8192) }).strict(),
    response: typed<ReadResourceResult>(),
  },
  'prompts.get': {
    request: z.object({ serverId, name: z.string().min(1), args: z.record(z.string(), z.string()) }).strict(),
    response: typed<GetPromptResult>(),
  },
  'completion.complete': {
    request: z
      .object({
        serverId,
        ref: z.discriminatedUnion('type', [
          z.object({ type: z.literal('ref/prompt'), name: z.string().min(1) }).strict(),
          z.object({ type: z.literal('ref/resource'), uri: z.string().min(1) }).strict(),
        ]),
        argument: z.object({ name: z.string().min(1), value: z.string() }).strict(),
        context: z
          .object({ arguments: z.record(z.string(), z.string()) })
          .strict()
          .optional(),
      })
      .strict(),
    response: typed<CompletionValues>(),
  },
} as const;

/** Suggested values for a prompt or resource-template argument. */
export interface CompletionValues {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/** One progress notification of a running tool call. */
export interface ToolProgress {
  callId: string;
  progress: number;
  total?: number;
  message?: string;
}
