import { z } from 'zod';
import type { ToolSearchHit } from '../../domain/tool-selection.js';
import { convId, typed } from './channel-kit.js';

/** Tool search: the ranking the chat's offer uses, for the Tools view's search box. */
export const toolSelectionChannels = {
  /**
   * Tools ranked for a text, best first, each with the words it matched and why (match, implied,
   * sibling). With `offerable`, only tools the chat may offer (enabled, not switched off), under
   * the conversation's own switches when one is named.
   */
  'tools.search': {
    request: z
      .object({
        query: z.string().max(2000),
        limit: z.number().int().min(1).max(500).optional(),
        offerable: z.boolean().optional(),
        conversationId: convId.optional(),
      })
      .strict(),
    response: typed<ToolSearchHit[]>(),
  },
} as const;
