import { isStdioConfig } from '../../../shared/domain/server-config.js';
import type { ServerState, ServerSummary } from '../../../shared/domain/server-state.js';
import { maskConfig } from '../config/config-mask.js';
import type { ConfigEntry } from '../config/config-document.js';
import type { ServerConnection } from '../connection/server-connection.js';
import { withFailureHint } from '../util/failure-hints.js';

/** One configured server as the UI sees it: masked config, state, transport, sandbox, counts. */
export function summarise(entry: ConfigEntry, connection: ServerConnection | undefined): ServerSummary {
  const state: ServerState = entry.ok
    ? (connection?.state ?? { kind: 'disabled' })
    : { kind: 'failed', error: { code: 'config_invalid', message: entry.error } };
  const lists = connection?.state.kind === 'connected' ? connection.catalog : undefined;
  const transport = entry.ok ? (connection?.transportKind ?? 'unknown') : 'unknown';
  return {
    id: entry.name,
    config: entry.ok ? maskConfig(entry.config) : null,
    ...(entry.ok ? {} : { invalidEntry: entry.raw }),
    state: withFailureHint(state, transport),
    transport,
    ...(entry.ok && isStdioConfig(entry.config) && connection?.sandboxState
      ? { sandbox: connection.sandboxState }
      : {}),
    ...(entry.ok && connection?.networkActivity ? { network: connection.networkActivity } : {}),
    counts: {
      tools: lists?.tools.length ?? 0,
      resources: lists?.resources.length ?? 0,
      templates: lists?.templates.length ?? 0,
      prompts: lists?.prompts.length ?? 0,
    },
  };
}
