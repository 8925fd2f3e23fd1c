import type { HandlersOf } from '../route-handlers.js';
import type { diagnosticsChannels } from '../../../shared/ipc/channels/diagnostics-channels.js';
import type { DiagnosticsService } from './diagnostics-service.js';

type DiagnosticsChannel = keyof typeof diagnosticsChannels;
type Handlers = HandlersOf<DiagnosticsChannel>;

/** The diagnostics.* channels, bound to the diagnostics service. */
export function diagnosticsHandlers(diagnostics: DiagnosticsService): Handlers {
  return {
    'diagnostics.get': () => ({ text: diagnostics.report() }),
    'diagnostics.reportError': (r) => {
      diagnostics.rendererError(r);
      return null;
    },
  };
}
