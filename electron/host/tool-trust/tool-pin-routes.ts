import type { ParsedRequestOf, ResponseOf } from '../../../shared/ipc/contract.js';
import type { toolPinChannels } from '../../../shared/ipc/channels/tool-pin-channels.js';
import type { ToolTrustService } from './tool-trust-service.js';

type ToolPinChannel = keyof typeof toolPinChannels;
type Handlers = {
  [C in ToolPinChannel]: (req: ParsedRequestOf<C>) => Promise<ResponseOf<C>>;
};

/** The tools.changes / tools.acceptChange channels, bound to the tool trust service. */
export function toolPinHandlers(trust: ToolTrustService): Handlers {
  return {
    'tools.changes': async () => trust.changes(),
    'tools.acceptChange': async (r) => ({
      accepted: await trust.accept(r.serverId, r.tool, 'review', r.fingerprint),
    }),
  };
}
