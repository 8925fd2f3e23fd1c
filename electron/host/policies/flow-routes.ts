import type { flowChannels } from '../../../shared/ipc/channels/flow-channels.js';
import type { HandlersOf } from '../route-handlers.js';
import type { FlowGuard } from './flow-guard.js';

type Handlers = HandlersOf<keyof typeof flowChannels>;

/** The flows.* channels, bound to the flow guard. */
export function flowHandlers(flows: FlowGuard): Handlers {
  return {
    'flows.setLabels': async (r) => ({
      changed: await flows.setOverride(r.serverId, r.tool, r.labels),
    }),
    'flows.trustContent': (r) => ({ released: flows.release(r.conversationId, 'card') }),
  };
}
