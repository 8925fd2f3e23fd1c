import { z } from 'zod';
import { convId, serverId, typed } from './channel-kit.js';

const flowLabel = z.enum(['source', 'sensitive', 'sink']);

/** Flow labels and the taint of a conversation: a person's overrides and "I trust this content". */
export const flowChannels = {
  /**
   * Set the flow labels of a tool (or, without `tool`, of every tool of a server), replacing
   * the computed defaults; `null` goes back to the defaults. Audited. False when nothing changed.
   */
  'flows.setLabels': {
    request: z
      .object({
        serverId,
        tool: z.string().min(1).max(300).optional(),
        labels: z.array(flowLabel).max(3).nullable(),
      })
      .strict(),
    response: typed<{ changed: boolean }>(),
  },
  /**
   * "I trust this content": what the conversation took in so far no longer holds its calls to
   * sinks (content arriving later does). Audited; answers how many pieces were released.
   */
  'flows.trustContent': {
    request: z.object({ conversationId: convId }).strict(),
    response: typed<{ released: number }>(),
  },
} as const;
