import type { HandlersOf } from '../route-handlers.js';
import type { toolPinChannels } from '../../../shared/ipc/channels/tool-pin-channels.js';
import type { ToolTrustService } from './tool-trust-service.js';

type ToolPinChannel = keyof typeof toolPinChannels;
type Handlers = HandlersOf<ToolPinChannel>;

/** The tools.changes / tools.acceptChange channels, bound to the tool trust service. */
export function toolPinHandlers(trust: ToolTrustService): Handlers {
  return {
    'tools.changes': async () => trust.changes(),
    'tools.acceptChange': async (r) => ({
      accepted: await trust.accept(r.serverId, r.tool, 'review', r.fingerprint),
    }),
  };
}
